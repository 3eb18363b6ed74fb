import { createHash } from 'node:crypto';
import { PUBLICITY_STATE_TEXT, beijingMinute, formatScore, type EmbedBoard, type PublicResults } from '@contest/shared';

/**
 * The embeddable pages (issue 38 item 4) as plain HTML: no cookies, no application bundle, one small script that tells
 * the host page its height (`postMessage`, type `contest-embed-height`), styles inline. Their CSP allows that script by
 * its hash and nothing else; who may frame them is the competition's list (frame-ancestors).
 */
const RESIZE = `(function(){var last=0;function send(){var h=Math.ceil(document.documentElement.getBoundingClientRect().height);if(h!==last){last=h;parent.postMessage({type:'contest-embed-height',height:h,path:location.pathname},'*');}}if(window.ResizeObserver)new ResizeObserver(send).observe(document.documentElement);window.addEventListener('load',send);send();})();`;
const RESIZE_HASH = `'sha256-${createHash('sha256').update(RESIZE).digest('base64')}'`;

/** The embed's content security policy: its own script only, inline styles, links out, framed by `ancestors`. */
export const embedCsp = (ancestors: string) =>
  [
    "default-src 'none'",
    `script-src ${RESIZE_HASH}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');

const esc = (s: string | number | null | undefined) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.6 -apple-system,BlinkMacSystemFont,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;color:#1f1f1f;background:#fff}
.w{padding:12px}h1{font-size:16px;margin:0 0 4px}h2{font-size:15px;margin:16px 0 6px}h3{font-size:14px;margin:10px 0 4px;color:#555}
.m{color:#666;font-size:12px;margin-bottom:8px}.tag{display:inline-block;padding:0 6px;border-radius:4px;font-size:12px;margin-left:6px}
.open{background:#fff7e6;color:#d46b08;border:1px solid #ffd591}.closed{background:#f6ffed;color:#389e0d;border:1px solid #b7eb8f}
table{width:100%;border-collapse:collapse}th,td{padding:6px 8px;border-bottom:1px solid #f0f0f0;text-align:left;vertical-align:top}
th{background:#fafafa;font-weight:600;white-space:nowrap}td.n{white-space:nowrap;font-variant-numeric:tabular-nums}a{color:#1677ff;text-decoration:none}
.e{color:#999;padding:16px 0;text-align:center}.f{margin-top:8px;font-size:12px;color:#999}
@media (max-width:480px){th.s,td.s{display:none}.w{padding:8px}}`;

/** `origin`: the platform's address for the footer's link (none in production without PUBLIC_URL: no footer). */
const page = (title: string, body: string, origin: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><div class="w">${body}${origin ? `<div class="f">数据来自 <a href="${esc(origin)}" target="_blank" rel="noopener">${esc(new URL(origin).host)}</a></div>` : ''}</div><script>${RESIZE}</script></body></html>`;

export function boardHtml(b: EmbedBoard, origin: string): string {
  const rows = b.rows.length
    ? b.rows
        .map(
          (r) =>
            `<tr><td class="n">${r.rank}</td><td>${esc(r.teamName)}${r.groupName ? ` <span class="m">${esc(r.groupName)}</span>` : ''}</td><td class="n">${esc(formatScore(r.score))}</td><td class="n s">${r.submissions}</td><td class="n s">${esc(beijingMinute(r.lastAt))}</td></tr>`,
        )
        .join('')
    : `<tr><td colspan="5" class="e">暂无成绩</td></tr>`;
  const which = b.board === 'private' ? '私榜（最终排名）' : '公榜';
  return page(
    `${b.title} 排行榜`,
    `<h1>${esc(b.title)} · 排行榜</h1><div class="m">${esc(b.competitionName)} · ${which} · 评分指标 ${esc(b.metric)}（${b.higherIsBetter ? '越高越好' : '越低越好'}） · 共 ${b.total} 支队伍</div>
<table><thead><tr><th>排名</th><th>队伍</th><th>得分</th><th class="s">提交次数</th><th class="s">最后提交</th></tr></thead><tbody>${rows}</tbody></table>`,
    origin,
  );
}

export function resultsHtml(r: PublicResults, origin: string): string {
  const state = r.state === 'open' ? `<span class="tag open">公示中</span>` : r.state === 'closed' ? `<span class="tag closed">最终名单</span>` : '';
  const window = r.start && r.end ? `公示期 ${esc(beijingMinute(r.start))} 至 ${esc(beijingMinute(r.end))}` : '';
  let body = `<h1>${esc(r.competitionName)} · 获奖名单${state}</h1><div class="m">${esc(r.orgName)}${window ? ` · ${window}` : ''}</div>`;
  if (r.state === 'none' || r.state === 'before')
    body += `<div class="e">${r.state === 'before' ? `成绩将于 ${esc(beijingMinute(r.start!))} 开始公示` : PUBLICITY_STATE_TEXT.none}</div>`;
  else if (!r.questions.length) body += `<div class="e">暂无获奖名单</div>`;
  for (const q of r.questions) {
    body += `<h2>${esc(q.title)}</h2>`;
    for (const g of q.groups) {
      if (g.group) body += `<h3>${esc(g.group)}</h3>`;
      body += `<table><thead><tr><th>奖项</th><th>队伍</th><th class="s">学校</th>${r.state === 'closed' ? '<th>证书</th>' : ''}</tr></thead><tbody>`;
      for (const l of g.lines) {
        const certs = l.certNos
          .map((no) => `<a href="${esc(`${origin}/certificate/verify/${encodeURIComponent(no)}`)}" target="_blank" rel="noopener">${esc(no)}</a>`)
          .join('<br>');
        body += `<tr><td class="n">${esc(l.awardName)}</td><td>${esc(l.teamName)}</td><td class="s">${esc(l.schoolName)}</td>${r.state === 'closed' ? `<td class="n">${certs || '—'}</td>` : ''}</tr>`;
      }
      body += '</tbody></table>';
    }
  }
  return page(`${r.competitionName} 获奖名单`, body, origin);
}

/** A CSV cell: quoted where needed; text a spreadsheet would take for a formula is written as text (numbers stay numbers). */
const csvCell = (v: string | number | null | undefined) => {
  if (typeof v === 'number') return String(v);
  let s = String(v ?? '');
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (rows: (string | number | null | undefined)[][]) => `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;

export const boardCsv = (b: EmbedBoard) =>
  csv([
    ['排名', '队伍', '组别', '得分', '提交次数', '最后提交（北京时间）'],
    ...b.rows.map((r) => [r.rank, r.teamName, r.groupName, r.score, r.submissions, beijingMinute(r.lastAt)]),
  ]);

export const resultsCsv = (r: PublicResults) =>
  csv([
    ['赛题', '组别', '奖项', '名次', '队伍编号', '队伍', '学校', '证书编号'],
    ...r.questions.flatMap((q) =>
      q.groups.flatMap((g) => g.lines.map((l) => [q.title, g.group, l.awardName, l.rank, l.teamNo, l.teamName, l.schoolName, l.certNos.join(' ')])),
    ),
  ]);
