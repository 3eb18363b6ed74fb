// @vitest-environment happy-dom
import { CERT_BUILTIN_FIELDS, certDateText, type Certificate, type TemplateBody } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CertificateTemplateModal } from './pages/question/parts/CertificateTemplateModal.tsx';

configure({ asyncUtilTimeout: 5000 });

let posted: { url: string; body: TemplateBody }[] = [];
/** Whether the question has certificates written yet (else the preview borrows the best-ranked awarded team). */
let written = true;
/** Whether the best-ranked team is an individual entry. */
let individualTop = false;
const holder: Certificate = {
  id: 1,
  certNo: '202600000042',
  competitionId: 3,
  competitionName: '泰迪杯',
  questionId: 11,
  questionTitle: 'B题 电力负荷预测',
  teamId: 9,
  teamName: '真实的队伍',
  holderKind: 'member',
  holderName: '李真实',
  school: '某大学',
  awardName: '二等奖',
  createdAt: '2026-05-10T02:00:00.000Z',
};

beforeEach(() => {
  posted = [];
  written = true;
  individualTop = false;
  // The preview is laid out on the dialog's width, which happy-dom does not compute.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(842);
  if (!('setPointerCapture' in HTMLElement.prototype)) Object.assign(HTMLElement.prototype, { setPointerCapture() {} });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      if (init.method === 'POST') posted.push({ url: pathname, body: JSON.parse(String(init.body)) });
      const page = (list: unknown[]) => ({ list, total: list.length, page: 1, limit: 1 });
      const data =
        pathname === '/api/review/certificate/export/11'
          ? page(written ? [holder] : [])
          : pathname === '/api/review/works/grade/11'
            ? page([
                {
                  questionId: 11,
                  teamId: 5,
                  teamNo: '0000000005',
                  teamName: individualTop ? '李明（个人）' : '排名第一队',
                  rank: 1,
                  awardId: 2,
                  awardName: '一等奖',
                },
              ])
            : pathname === '/api/competition/public/3'
              ? { id: 3, name: '泰迪杯数据挖掘挑战赛', orgName: '华南数据学院' }
              : null;
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(onClose = () => {}) {
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <CertificateTemplateModal
          competitionId={3}
          templateId={null}
          readOnly={false}
          onClose={onClose}
          question={{ id: 11, title: 'B题 电力负荷预测', competitionName: '泰迪杯数据挖掘挑战赛' }}
        />
      </QueryClientProvider>
    </AntApp>,
  );
}

// By its label: a role query walks the whole dialog's styles on every call, and the preview is read in many waits.
const preview = () => screen.getByLabelText('证书预览');
const field = (name: string) => preview().querySelector<HTMLElement>(`[data-field="${name}"]`)!;
const xOf = (row: number) => document.getElementById(`certTemplate_fields_${row}_x`) as HTMLInputElement;

// The dialog holds a dozen rows of inputs and colour pickers: slow to render in happy-dom on a busy machine.
describe('the certificate template editor', { timeout: 90_000 }, () => {
  it('starts a new template on the built-in landscape layout, previewed with the question’s real data and the usual wording', async () => {
    open();
    expect(screen.getByText('内置模板 · A4横向').closest('label')!.className).toContain('checked');
    expect(screen.getByText('内置模板 · A4纵向')).toBeTruthy();
    expect(screen.getByText('上传背景图')).toBeTruthy();
    expect(field('competition').textContent).toBe('泰迪杯数据挖掘挑战赛');
    expect(field('question').textContent).toBe('在“B题 电力负荷预测”赛题中表现优异，荣获');
    expect(field('wording').textContent).toBe('特发此证，以资鼓励。');
    // One of the question's certificates lends its holder.
    await waitFor(() => expect(field('name').textContent).toBe('李真实：'));
    expect(field('award').textContent).toBe('二等奖');
    expect(field('team').textContent).toBe('所在队伍：真实的队伍');
    expect(field('certNo').textContent).toBe('证书编号：202600000042　验证码：7KQ2-M9XD');
    // Centred fields are anchored on their middle.
    expect(field('award').style.transform).toBe('translateX(-50%)');
    // A4 landscape, scaled to fit 460 pixels high.
    const scale = 460 / 595;
    expect(parseFloat(preview().style.width)).toBeCloseTo(842 * scale, 3);
  });

  it('previews the best-ranked awarded team before any certificate is written', async () => {
    written = false;
    open();
    // Two reads in a row (no certificate yet, then the ranked grades): allow for a busy machine.
    await waitFor(() => expect(field('team').textContent).toBe('所在队伍：排名第一队'), { timeout: 30_000 });
    expect(field('award').textContent).toBe('一等奖');
    expect(field('competition').textContent).toBe('泰迪杯数据挖掘挑战赛');
  });

  it('prints the organiser and the date the certificates will carry, and an individual entry as its one member', async () => {
    written = false;
    individualTop = true;
    open();
    await waitFor(() => expect(field('team').textContent).toBe('所在队伍：李明（个人）'), { timeout: 30_000 });
    expect(field('name').textContent).toBe('李明：');
    expect(field('members').textContent).toContain('李明');
    expect(field('members').textContent).not.toContain('张三');
    await waitFor(() => expect(field('organizer').textContent).toContain('华南数据学院'));
    expect(field('date').textContent).toContain(certDateText(new Date()));
  });

  it('moves a field by dragging it, and the numbers follow', async () => {
    open();
    const name = field('name');
    const before = CERT_BUILTIN_FIELDS.landscape.find((f) => f.field === 'name')!;
    const scale = 460 / 595;
    fireEvent.pointerDown(name, { clientX: 100, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(name, { clientX: 100 + 40 * scale, clientY: 100 + 20 * scale, pointerId: 1 });
    fireEvent.pointerUp(name, { pointerId: 1 });
    await waitFor(() => expect(parseFloat(field('name').style.left)).toBeCloseTo((before.x + 40) * scale, 3));
    expect(parseFloat(field('name').style.top)).toBeCloseTo((before.y + 20) * scale, 3);
    const nameRow = CERT_BUILTIN_FIELDS.landscape.indexOf(before);
    expect(xOf(nameRow).value).toBe(String(before.x + 40));
  });

  it('switches to the portrait layout, rewords a field live, and saves the built-in layout with the fields', async () => {
    const onClose = vi.fn();
    open(onClose);
    fireEvent.click(screen.getByText('内置模板 · A4纵向'));
    await waitFor(() => expect(parseFloat(preview().style.width)).toBeCloseTo(595 * (460 / 842), 3));
    // Each field goes to the portrait layout's own place.
    const portraitAward = CERT_BUILTIN_FIELDS.portrait.find((f) => f.field === 'award')!;
    expect(parseFloat(field('award').style.top)).toBeCloseTo(portraitAward.y * (460 / 842), 3);
    expect(parseFloat(field('award').style.left)).toBeCloseTo(portraitAward.x * (460 / 842), 3);
    const wording = screen.getAllByLabelText('文字').find((i) => (i as HTMLInputElement).value === '特发此证，以资鼓励。')!;
    fireEvent.change(wording, { target: { value: '特授予此证书。' } });
    await waitFor(() => expect(field('wording').textContent).toBe('特授予此证书。'));
    // Wording without {} for a field with a value is refused at the field.
    const award = screen.getAllByLabelText('文字')[CERT_BUILTIN_FIELDS.landscape.findIndex((f) => f.field === 'question')]!;
    fireEvent.change(award, { target: { value: '荣获' } });
    expect(await screen.findByText('“赛题”的文字须包含{}，表示字段的值', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.change(award, { target: { value: '在{}中荣获' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(posted).toHaveLength(1));
    const { url, body } = posted[0]!;
    expect(url).toBe('/api/review/certificate/3');
    expect(body.name).toBe('获奖证书');
    expect(body.backgroundUri).toBe('builtin:portrait');
    expect(body.fields.map((f) => f.field)).toEqual(CERT_BUILTIN_FIELDS.landscape.map((f) => f.field));
    expect(body.fields.find((f) => f.field === 'wording')!.text).toBe('特授予此证书。');
    expect(body.fields.find((f) => f.field === 'question')!.text).toBe('在{}中荣获');
    expect(body.fields.find((f) => f.field === 'award')!.align).toBe('center');
    // Every field is still on the A4 portrait page.
    for (const f of body.fields) expect(f.x < 595 && f.y < 842).toBe(true);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('brings back a built-in layout’s own fields on request', async () => {
    open();
    fireEvent.click(screen.getByText('内置模板 · A4纵向'));
    const expected = CERT_BUILTIN_FIELDS.portrait.find((f) => f.field === 'award')!;
    const scale = 460 / 842;
    await waitFor(() => expect(parseFloat(field('award').style.top)).toBeCloseTo(expected.y * scale, 3));
    fireEvent.pointerDown(field('award'), { clientX: 100, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(field('award'), { clientX: 100, clientY: 100 + 50 * scale, pointerId: 1 });
    fireEvent.pointerUp(field('award'), { pointerId: 1 });
    await waitFor(() => expect(parseFloat(field('award').style.top)).toBeCloseTo((expected.y + 50) * scale, 3));
    fireEvent.click(screen.getByRole('button', { name: '恢复默认字段' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(parseFloat(field('award').style.top)).toBeCloseTo(expected.y * scale, 3));
  });
});
