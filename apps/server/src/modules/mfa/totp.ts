import { randomInt } from 'node:crypto';
import type * as Otplib from 'otplib';
import { MFA_RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@rota/contract';

/** RFC 6238 as every authenticator app reads an otpauth:// address by default: SHA1, 30 s. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Rota';
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const RECOVERY_HALF = 5;

// otplib and qrcode load at the first second-factor operation: most servers hold thousands of
// agents' connections and no one enrolling, and should not carry their code in memory.
let otplib: Promise<typeof Otplib> | null = null;
const otp = () => (otplib ??= import('otplib'));

export async function newTotpSecret(): Promise<string> {
  return (await otp()).generateSecret();
}

export async function otpauthUrl(secret: string, email: string): Promise<string> {
  return (await otp()).generateURI({ issuer: ISSUER, label: email, secret });
}

/** The otpauth:// address as an SVG data URL (no network, no canvas). */
export async function qrCodeOf(url: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(url, { type: 'svg', margin: 1 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The time step a code matches at `now`, one step either side, and later than `after` (a step
 * is never accepted twice); null otherwise. otplib compares in constant time.
 */
export async function matchingStep(
  secret: string,
  code: string,
  now: Date,
  after: number | null,
): Promise<number | null> {
  if (code.length !== TOTP_DIGITS || !/^\d+$/.test(code)) return null;
  const result = await (
    await otp()
  ).verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: PERIOD_SECONDS,
    epochTolerance: PERIOD_SECONDS,
    ...(after === null ? {} : { afterTimeStep: after }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** What a person typed: a TOTP code or a recovery code, spaces and dashes aside. */
export type TypedCode = { kind: 'totp'; value: string } | { kind: 'recovery'; value: string };

export function readCode(input: string): TypedCode | null {
  const value = input.replace(/[\s-]/g, '').toLowerCase();
  if (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(value)) return { kind: 'totp', value };
  if (new RegExp(`^[a-z0-9]{${RECOVERY_HALF * 2}}$`).test(value))
    return { kind: 'recovery', value };
  return null;
}

/** Ten `xxxxx-xxxxx` codes (about 51 random bits each); the user keeps them, we keep hashes. */
export function newRecoveryCodes(): { shown: string[]; normalized: string[] } {
  const shown: string[] = [];
  const normalized: string[] = [];
  for (let i = 0; i < MFA_RECOVERY_CODE_COUNT; i++) {
    let code = '';
    for (let j = 0; j < RECOVERY_HALF * 2; j++)
      code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    normalized.push(code);
    shown.push(`${code.slice(0, RECOVERY_HALF)}-${code.slice(RECOVERY_HALF)}`);
  }
  return { shown, normalized };
}
