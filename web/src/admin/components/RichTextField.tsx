import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { RichTextEditorProps } from './RichTextEditor.tsx';

const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'));

/** The rich-text editor, fetched the first time a form shows one. */
export function RichTextField(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}

/** Read-only rich text from the server (sanitised there when it was saved). */
export function RichTextView({ html }: { html: string | null | undefined }) {
  if (!html) return <span className="admin-hint">未填写</span>;
  return <div className="admin-rich-text-view" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** What an editor holds when it looks empty (`<p><br></p>`) is sent as nothing. */
export function richTextOrNull(html: string | null | undefined): string | null {
  if (!html) return null;
  const text = html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '');
  return text || /<(img|table|hr)\b/i.test(html) ? html : null;
}
