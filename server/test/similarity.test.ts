import { describe, expect, it } from 'vitest';
import { FingerprintIndex, compare, coverage, fingerprint, normalise, without, withoutReferences } from '../src/similarity/winnow.ts';
import { makeVocabulary, paper, plantCopy, rng, sentence } from './papers.ts';

/**
 * Issue 37, item 2 (the engine): character n-gram winnowing over normalised text, an inverted index for candidate
 * pairs, and each work's share of text in passages it shares with another.
 */
describe('查重 by winnowing', () => {
  it('compares text as letters and digits only: full-width, case, spacing and punctuation do not hide a copy', () => {
    const n = normalise('Ａｂ　c，数据１２。\n分析');
    expect(n.text).toBe('abc数据12分析');
    // Each kept character knows where it stood.
    expect(Array.from(n.offsets)).toEqual([0, 1, 3, 5, 6, 7, 8, 11, 12]);
    const a = fingerprint(normalise('本文提出了一种基于随机森林的用电负荷预测方法，在公开数据集上取得了较好的效果。').text);
    const b = fingerprint(normalise('本文 提出了一种基于随机森林的用电负荷预测方法 在公开数据集上 取得了较好的效果').text);
    expect(compare(a, b).shareA).toBeGreaterThan(0.9);
  });

  it('finds every common run of k + w − 1 characters or more, and marks where it is', () => {
    const random = rng(7);
    const vocab = makeVocabulary(random);
    for (let trial = 0; trial < 50; trial++) {
      const run = normalise(sentence(random, vocab) + sentence(random, vocab)).text.slice(0, 15 + Math.floor(random() * 30));
      const before = normalise(sentence(random, vocab).repeat(2)).text;
      const a = `${before}${run}${normalise(sentence(random, vocab)).text}`;
      const b = `${normalise(sentence(random, vocab)).text}${run}`;
      const m = compare(fingerprint(a), fingerprint(b));
      expect(m.a.length, `trial ${trial}`).toBeGreaterThan(0);
      // The passage found lies over the run in A.
      const start = [...before].length;
      expect(m.a.some(([s, e]) => s < start + [...run].length && e > start)).toBe(true);
    }
  });

  it('leaves out what every team shares (template, statement) and the references', () => {
    const random = rng(11);
    const vocab = makeVocabulary(random);
    const template = paper(random, vocab, 2000).join('\n');
    const one = `${template}\n${paper(random, vocab).join('\n')}`;
    const two = `${template}\n${paper(random, vocab).join('\n')}`;
    const excluded = new Set(fingerprint(normalise(template).text).hashes);
    const raw = compare(fingerprint(normalise(one).text), fingerprint(normalise(two).text));
    expect(raw.shareA).toBeGreaterThan(0.1);
    const clean = compare(without(fingerprint(normalise(one).text), excluded), without(fingerprint(normalise(two).text), excluded));
    expect(clean.shareA).toBeLessThan(0.05);
    expect(clean.shareB).toBeLessThan(0.05);
    const cited = `正文内容${'甲'.repeat(100)}\n参考文献\n[1] 周志华. 机器学习. 清华大学出版社, 2016.`;
    expect(withoutReferences(cited)).toBe(`正文内容${'甲'.repeat(100)}\n`);
    // A "参考文献" early in the text (a section mentioning it) is not the references section.
    expect(withoutReferences(`参考文献\n${'乙'.repeat(100)}`)).toBe(`参考文献\n${'乙'.repeat(100)}`);
  });

  it('finds planted copies among honest papers through the index, each with its share of copied text', () => {
    const random = rng(2026);
    const vocab = makeVocabulary(random);
    const template = paper(random, vocab, 1500).join('\n');
    const excluded = new Set(fingerprint(normalise(template).text).hashes);
    const texts = Array.from({ length: 80 }, () => paper(random, vocab, 15_000));
    const planted: [number, number][] = [];
    for (let i = 0; i < 6; i++) {
      const [from, to] = [i * 2, i * 2 + 1];
      texts[to] = plantCopy(random, vocab, texts[from]!, texts[to]!, 0.3);
      planted.push([from, to]);
    }
    const index = new FingerprintIndex();
    for (const t of texts) index.add(without(fingerprint(normalise(`${template}\n${t.join('\n')}`).text), excluded));

    const flagged = new Set<string>();
    const shares: number[] = [];
    for (let id = 0; id < index.size; id++) {
      for (const c of index.candidates(id)) {
        const m = compare(index.doc(id), index.doc(c.id));
        if (m.shareA >= 0.2) flagged.add(`${id}-${c.id}`);
        if (planted.some(([f, t]) => f === c.id && t === id)) shares.push(m.shareA);
      }
    }
    // Each copier is flagged against its source, with about the 30% it took (and the source against it: the same
    // passages are about as large a share of it); no honest pair is.
    for (const [from, to] of planted) expect(flagged.has(`${to}-${from}`), `${to} copied ${from}`).toBe(true);
    expect(Math.min(...shares)).toBeGreaterThan(0.22);
    expect([...flagged].filter((p) => !planted.some(([f, t]) => p === `${t}-${f}` || p === `${f}-${t}`))).toEqual([]);
    expect(coverage([[0, 5]])).toBe(5);
  });
});
