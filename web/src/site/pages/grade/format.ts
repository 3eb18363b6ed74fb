/** Scores go through the shared formats, like those of the test tab and the back office. */
export { formatScore as showScore, formatTestScore as showTestScore } from '@contest/shared';

export const showRank = (rank: number | null, teams?: number) => (rank === null ? '—' : `第 ${rank} 名${teams ? `（共 ${teams} 支队伍）` : ''}`);
