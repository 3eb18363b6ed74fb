import { normalise, withoutReferences } from './winnow.ts';

/**
 * Blind review stays blind (issue 37, item 4): a work's text, its files' metadata and its zip's entry names are
 * searched for the names of its team: members, team name, school, teachers. Names are compared as the engine compares
 * text (NFKC, lower case, letters and digits only), so 张 三, ＺＨＡＮＧ and zhang-san match 张三, ZHANG and zhangsan.
 */
export interface TeamNames {
  members: string[];
  team: string;
  schools: string[];
  teachers: string[];
}

/** What names a work's files carry. The works file's own name is not searched: judges see the work's code instead. */
export interface NamedFiles {
  /** Each document's metadata: its name and fields (author, creator, producer, last editor, title). */
  meta: { file: string; fields: Record<string, string> }[];
  /** A zip's entry names. */
  entries: string[];
}

export interface IdentityHit {
  kind: string;
  value: string;
  where: string;
  excerpt: string;
}

const FIELD_LABEL: Record<string, string> = {
  author: '作者',
  creator: '创建者',
  producer: '生成工具',
  title: '标题',
  lastModifiedBy: '最后编辑者',
};

/**
 * Shortest name searched, in normalised characters: a person's name of two Chinese characters, a team or school of
 * three; a name in Latin letters of six (the normalised text has no spaces: a short one would match inside words).
 */
const MIN_PERSON = 2;
const MIN_GROUP = 3;
const MIN_LATIN = 6;
const HAN = /\p{Script=Han}/u;

/** Every hit of the team's names in the work, at most one per name and place. */
export function scanIdentity(text: string, files: NamedFiles, names: TeamNames): IdentityHit[] {
  const wanted: { kind: string; value: string; key: string }[] = [];
  const add = (kind: string, values: string[], min: number) => {
    for (const value of values) {
      const key = normalise(value).text;
      const long = HAN.test(key) ? key.length >= min : key.length >= Math.max(min, MIN_LATIN);
      if (long && !wanted.some((w) => w.key === key)) wanted.push({ kind, value: value.trim(), key });
    }
  };
  add('成员姓名', names.members, MIN_PERSON);
  add('指导教师', names.teachers, MIN_PERSON);
  add('队伍名称', [names.team], MIN_GROUP);
  add('学校', names.schools, MIN_GROUP);
  if (!wanted.length) return [];

  const hits: IdentityHit[] = [];
  // The references are left out: a cited author may share a member's name.
  const body = normalise(withoutReferences(text));
  for (const w of wanted) {
    const at = body.text.indexOf(w.key);
    if (at < 0) continue;
    const start = body.offsets[at]!;
    const end = body.offsets[at + w.key.length - 1]! + 1;
    const excerpt = `${start > 20 ? '…' : ''}${text.slice(Math.max(0, start - 20), end + 20).replace(/\s+/g, ' ')}${end + 20 < text.length ? '…' : ''}`;
    hits.push({ kind: w.kind, value: w.value, where: '正文', excerpt });
  }
  const places: { where: string; value: string }[] = [
    ...files.entries.map((e) => ({ where: '压缩包内文件名', value: e })),
    ...files.meta.flatMap((m) => Object.entries(m.fields).map(([field, value]) => ({ where: `${m.file} 的${FIELD_LABEL[field] ?? field}`, value }))),
  ];
  for (const p of places) {
    const key = normalise(p.value).text;
    for (const w of wanted) {
      if (key.includes(w.key) && !hits.some((h) => h.value === w.value && h.where === p.where))
        hits.push({ kind: w.kind, value: w.value, where: p.where, excerpt: p.value });
    }
  }
  return hits;
}
