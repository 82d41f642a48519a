/**
 * nodemailer's transport, in a module of our own that mailer.ts loads at the first message. A module
 * of ours: in the bundle, import() of a CommonJS package itself would give only its default export.
 */
export { createTransport } from 'nodemailer';
