import { CONFUSABLE_PROTOTYPES } from './confusables.ts';

const PROTOTYPE = new Map<string, string>();
for (const [prototype, lookalikes] of Object.entries(CONFUSABLE_PROTOTYPES)) {
  for (const c of lookalikes) PROTOTYPE.set(c, prototype);
}

/** NFKC folds full-width and mathematical letters; marks (`é` → `e`) and invisible characters are dropped. */
const fold = (s: string) =>
  s
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, '');
const toPrototypes = (s: string) => Array.from(s, (c) => PROTOTYPE.get(c) ?? c).join('');

/**
 * What a username looks like, after UTS #39's skeleton: two usernames with one skeleton can pass for each other
 * (`аdmin` with a Cyrillic а, `admın`, `ａｄｍｉｎ`, `adm1n`, `admIn` and `admin` are one). Prototypes are found before
 * lower-casing, because the table tells capital `I` (like `l`) from small `i`; then once more after it, since a
 * capital's small letter may have a prototype of its own (`M` → `m` → `rn`).
 */
export function usernameSkeleton(username: string): string {
  return toPrototypes(toPrototypes(fold(username.trim())).toLowerCase()).toLowerCase();
}
