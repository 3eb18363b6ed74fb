import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { acsParams, checkAcs3, header, simulatorKeys, simulatorServer, type Reply } from '../sms/simulator.ts';
import type { Endpoint } from '../sms/provider.ts';

/**
 * A development stand-in for Aliyun 实人认证 (IDCHECK_SIMULATOR=1, refused in production). It answers the real
 * `Id2MetaVerify` API on a port of its own, checking each request's ACS3 signature against the simulator's Aliyun key
 * (the SMS simulator's, kept under DATA_DIR), so the platform's adapter runs its SDK code as in production.
 *
 * Its register of people (`lookup`, kept in the platform's database) answers as the real one: a number it holds agrees
 * only with the name it holds. A number it does not hold is entered with the first name asked of it (a person checking
 * their own number). Two sequence codes (the 15th to 17th characters) stand for the register's other answers: 999 has
 * no record (查无此人), and 998 is held under the name 张三 (any other name disagrees). The simulator's page
 * (/simulator/idcheck) lists the register.
 */
export interface IdCheckSimulator {
  keys: { accessKeyId: string; accessKeySecret: string };
  endpoint(): Promise<Endpoint>;
  close(): Promise<void>;
}

/** The register: the name held for a number, entering `name` for it when there is none. */
export type SimulatorRegister = (number: string, name: string) => Promise<string>;

export const NO_RECORD_SEQUENCE = '999';
export const ZHANG_SAN_SEQUENCE = '998';

export function idCheckSimulator(dataDir: string, register: SimulatorRegister): IdCheckSimulator {
  const keys = simulatorKeys(dataDir).aliyun;
  const server = simulatorServer(async (req: http.IncomingMessage, url: URL, body: Buffer): Promise<Reply> => {
    const requestId = randomUUID().toUpperCase();
    const refused = checkAcs3(keys, req, url, body, requestId);
    if (refused) return refused;
    if (header(req, 'x-acs-action') !== 'Id2MetaVerify')
      return { status: 400, body: { RequestId: requestId, Code: 'InvalidAction.NotFound', Message: 'Specified api is not found.' } };
    const param = acsParams(url, body);
    const number = param('IdentifyNum').toUpperCase();
    const name = param('UserName');
    if (param('ParamType') !== 'normal' || !/^\d{17}[\dX]$/.test(number) || !name)
      return { status: 200, body: { RequestId: requestId, Code: '400', Message: '参数错误' } };
    const sequence = number.slice(14, 17);
    const held = sequence === ZHANG_SAN_SEQUENCE ? '张三' : sequence === NO_RECORD_SEQUENCE ? null : await register(number, name);
    const bizCode = held === null ? '3' : held === name ? '1' : '2';
    return { status: 200, body: { RequestId: requestId, Code: '200', Message: 'success', ResultObject: { BizCode: bizCode } } };
  });
  return { keys, ...server };
}
