import '@wangeditor/editor/dist/css/style.css';
import type { IDomEditor, IEditorConfig, IToolbarConfig } from '@wangeditor/editor';
import { Editor, Toolbar } from '@wangeditor/editor-for-react';
import { useEffect, useMemo, useState } from 'react';
import { avatarUrl } from '../../common/files.ts';
import { http } from '../../common/http.ts';
import { IMAGE_MAX_BYTES, imageUploadUrl } from '../../common/upload.ts';

type InsertImage = (src: string, alt: string, href: string) => void;

// The server keeps only allow-listed HTML (no video, no data: images): offer nothing it would drop.
const TOOLBAR: Partial<IToolbarConfig> = { excludeKeys: ['group-video', 'fullScreen'] };

export interface RichTextEditorProps {
  value?: string | null;
  onChange?: (html: string) => void;
  placeholder?: string;
  height?: number;
  readOnly?: boolean;
}

/**
 * The wangEditor rich-text editor as a form control. Pictures go through the http client to the
 * back office's image upload (purpose `content`), which takes care of the CSRF header and of errors.
 * Loaded lazily: only pages that edit rich text download it.
 */
export default function RichTextEditor({ value, onChange, placeholder, height = 320, readOnly = false }: RichTextEditorProps) {
  const [editor, setEditor] = useState<IDomEditor | null>(null);

  const config = useMemo<Partial<IEditorConfig>>(
    () => ({
      placeholder: placeholder ?? '请输入内容',
      readOnly,
      // The editor loads after the form: focusing itself then would take the keys meant for the field being typed in.
      autoFocus: false,
      MENU_CONF: {
        uploadImage: {
          maxFileSize: IMAGE_MAX_BYTES,
          allowedFileTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
          // 0 keeps every picture an upload: inline base64 images would be removed by the server.
          base64LimitSize: 0,
          async customUpload(file: File, insert: InsertImage) {
            const form = new FormData();
            form.append('file', file);
            const { fileUri } = await http.post<{ fileUri: string }>(imageUploadUrl('content'), form);
            insert(avatarUrl(fileUri), file.name, '');
          },
        },
      },
    }),
    // Read once: wangEditor takes its configuration only when it is created.
    [],
  );

  useEffect(() => {
    if (readOnly) editor?.disable();
    else editor?.enable();
  }, [editor, readOnly]);

  // The editor lives outside React's tree and must be destroyed by hand.
  useEffect(
    () => () => {
      editor?.destroy();
    },
    [editor],
  );

  return (
    <div className="admin-rich-text">
      {!readOnly && <Toolbar editor={editor} defaultConfig={TOOLBAR} mode="default" />}
      <Editor
        defaultConfig={config}
        value={value ?? ''}
        onCreated={setEditor}
        onChange={(e) => onChange?.(e.getHtml())}
        mode="default"
        style={{ height, overflowY: 'hidden' }}
      />
    </div>
  );
}
