export { isValidPhone, maskPhone, normalPhone } from './phone.ts';
export { isValidUrl } from './url.ts';
export {
  ID_CARD_MESSAGES,
  ID_CARD_PROVINCES,
  hkCheckDigit,
  isValidTaiwanChecksum,
  mainlandCheckDigit,
  maskIdCard,
  validateIdCard,
  type IdCardMessage,
} from './idCard.ts';
