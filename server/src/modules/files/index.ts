/**
 * Uploaded files: images, documents and private files, kept in the configured store; who may read a private file is
 * asked of the module that owns its purpose. What other modules may use: checking that a key the user sent is their own
 * upload, registering a reader for a private purpose or a gate for a public one, an image's size, a certificate background upload, a safe name, letting go of a file no record holds any more.
 */
export { assertOwnFile, displayName, imageMimeOf, releaseFile, gatePublicReads, grantPrivateReads, imageSize, uploadCertificateBackground } from './service.ts';
export { assertOwnImage } from './images.ts';
