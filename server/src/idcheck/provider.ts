/**
 * 实名核验 (issue 35): whether a name and a mainland ID number agree in the public-security register, asked of the
 * provider Chinese platforms pay for such checks: Aliyun 实人认证's `Id2MetaVerify` (aliyun.ts, through its SDK). Outside
 * production the simulator (simulator.ts) answers the same API, signature checked, from a register of its own.
 */

/** The register's answer: the name and number agree, they do not, or the number is not in the register. */
export type IdCheckOutcome = 'match' | 'mismatch' | 'no_record';

export interface IdCheckResult {
  outcome: IdCheckOutcome;
  /** The provider's request id, kept with the attempt (what its support asks for). */
  providerRef: string;
}

export interface IdCheckSettings {
  accessKeyId: string;
  accessKeySecret: string;
}

/** The provider did not answer the question (a key it refuses, its service down): the attempt is not counted as failed. */
export class IdCheckError extends Error {}
