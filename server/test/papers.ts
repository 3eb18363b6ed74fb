/**
 * Generated Chinese papers for 查重 (issue 37): a vocabulary of words drawn with Zipf-like frequencies, so that honest
 * papers share the language's common words and short phrases; planted copies take paragraphs from another paper,
 * reorder them and reword them lightly (one word in a sentence replaced). Deterministic for a seed.
 */

/** A small deterministic generator (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质';
const PUNCT = ['，', '，', '，', '；', '。'];

export function makeVocabulary(random: () => number, size = 3000): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const len = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < len; i++) w += COMMON[Math.floor(random() * COMMON.length)];
    words.add(w);
  }
  return [...words];
}

/** A word, frequent ones far more often (Zipf-like: index ~ size^u, uniform in log rank). */
const word = (random: () => number, vocab: string[]) => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length ** random()) - 1)]!;

export function sentence(random: () => number, vocab: string[]): string {
  const n = 6 + Math.floor(random() * 8);
  let s = '';
  for (let i = 0; i < n; i++) s += word(random, vocab) + (i === n - 1 ? '。' : random() < 0.12 ? PUNCT[Math.floor(random() * 4)] : '');
  return s;
}

export function paragraph(random: () => number, vocab: string[], chars = 300): string {
  let p = '';
  while (p.length < chars) p += sentence(random, vocab);
  return p;
}

/** A paper of about `chars` characters in paragraphs of about 300. */
export function paper(random: () => number, vocab: string[], chars = 15_000): string[] {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const p = paragraph(random, vocab, 200 + Math.floor(random() * 200));
    out.push(p);
    n += p.length;
  }
  return out;
}

/** Rewords lightly: in each sentence, one word replaced by another of the vocabulary. */
export function reword(random: () => number, vocab: string[], text: string): string {
  return text
    .split('。')
    .map((s) => {
      if (s.length < 6) return s;
      const at = Math.floor(random() * (s.length - 3));
      return s.slice(0, at) + word(random, vocab) + s.slice(at + 2);
    })
    .join('。');
}

/** B with `share` of its paragraphs replaced by paragraphs of A, reworded, in another order. */
export function plantCopy(random: () => number, vocab: string[], a: string[], b: string[], share = 0.3): string[] {
  const out = [...b];
  const count = Math.round(out.length * share);
  const taken = [...a.keys()].sort(() => random() - 0.5).slice(0, count);
  const slots = [...out.keys()].sort(() => random() - 0.5).slice(0, count);
  slots.forEach((slot, i) => {
    out[slot] = reword(random, vocab, a[taken[i]!]!);
  });
  return out;
}
