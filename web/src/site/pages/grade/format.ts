/** A score for display: two decimals at most, a dash when there is none. */
export const showScore = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(Number(v.toFixed(2))));

/** A test score is the metric's own value (an accuracy, an error), shown with more digits. */
export const showTestScore = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(Number(v.toFixed(6))));

export const showRank = (rank: number | null, teams?: number) => (rank === null ? '—' : `第 ${rank} 名${teams ? `（共 ${teams} 支队伍）` : ''}`);
