/** Fixed names and numbers; console, server and agent read them from here. */
export const PRODUCT_NAME = 'Rota';
export const PRODUCT_SLUG = 'rota';
export const VERSION_LABEL = '3.0.1';

export const SESSION_COOKIE = `e2e.${PRODUCT_SLUG}.web.token`;
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

export const LANGUAGES = ['pt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt';
/** The console's colour schemes a user may keep; `auto` follows the system. */
export const COLOR_SCHEMES = ['light', 'dark', 'auto'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];
export const LANGUAGE_STORAGE_KEY = 'lang';

/** Fixed durations, in milliseconds. */
export const TIMINGS = {
  successPopupMs: 3000,
  errorPopupMs: 6000,
  unauthorizedRedirectMs: 5000,
  successToastMs: 9000,
  errorToastMs: 900000,
} as const;

export const DEFAULT_DATE_RANGE_DAYS = 10;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const RESET_CODE_TTL_MINUTES = 30;

/**
 * Sign-in and recovery throttles. Sign-in failures slow the account-and-address
 * pair that made them (a few free, then an exponential wait) instead of locking the account; see
 * docs/decisions.md, "Sign-in slows a guesser without locking the owner out".
 */
export const RATE_LIMITS = {
  windowSeconds: 15 * 60,
  /** Failures one address may make against one account before it has to wait. */
  signInFreeFailuresPerPair: 5,
  /** The first wait after those; each further failure doubles it, up to `signInMaxWaitSeconds`. */
  signInFirstWaitSeconds: 30,
  signInMaxWaitSeconds: 15 * 60,
  /** A pair's failures are forgotten after this long without one. */
  signInPairMemorySeconds: 24 * 60 * 60,
  /** Failures on one account from all addresses before new addresses share a slow lane. */
  signInFailuresPerAccountBeforeSlowLane: 10,
  /** The slow lane: one password check per this many seconds, per account, for unknown addresses. */
  signInSlowLaneSeconds: 5,
  /** An account's failures are forgotten after this long without one. */
  signInAccountMemorySeconds: 60 * 60,
  /** An address the account signed in from within this many days is known (skips the slow lane). */
  signInKnownAddressDays: 30,
  signInFailuresPerIp: 100,
  recoverPerEmail: 10,
  recoverPerIp: 100,
  /** Wrong recovery codes (check-code and reset-password together) per address per window. */
  resetCodeFailuresPerIp: 10,
  /** Wrong second-factor codes per address (sign-in) or per account (signed in) per window. */
  mfaFailuresPerIp: 30,
} as const;
