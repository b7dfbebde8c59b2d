import { z } from 'zod';
import { idSchema, listQuerySchema, requiredIdSchema, storableString } from './common.js';
import { sessionResponseSchema } from './auth.js';
import { msg } from './messages.js';

/*
 * Single sign-on with OpenID Connect, a TOTP second factor for local accounts, and the
 * user's own sessions. One file, three areas; each server module owns its part.
 */

/* ---------- Second factor (TOTP, RFC 6238) ---------- */

/** Digits of a TOTP code; recovery codes are `xxxxx-xxxxx` of [a-z0-9]. */
export const TOTP_DIGITS = 6;
export const MFA_RECOVERY_CODE_COUNT = 10;
/** How long a password-accepted sign-in waits for its code. */
export const MFA_CHALLENGE_TTL_SECONDS = 300;
/** Wrong codes a challenge takes before it is spent. */
export const MFA_CHALLENGE_MAX_FAILURES = 5;

/** A six-digit code or a recovery code; spaces and dashes typed by people are tolerated. */
export const mfaCodeSchema = z
  .string({ error: msg('required_mfa_code') })
  .trim()
  .min(1, msg('required_mfa_code'))
  .max(32, msg('invalid_mfa_code'));

/**
 * `POST /user/api/auth/v1/session` answers this instead of the session when the account
 * has a second factor (or must enrol one): no token until `mfa` completes it.
 */
export const mfaChallengeResponseSchema = z.object({
  mfa_required: z.literal(true),
  challenge: z.string(),
  /** True when the account has no second factor yet and a client requires one: enrol first. */
  enrolment_required: z.boolean(),
  expires_in: z.number().int(),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;

/** POST /user/api/auth/v1/mfa: completes a challenge; answers the session a password sign-in would. */
export const mfaVerifySchema = z.object({
  challenge: z
    .string({ error: msg('mfa_challenge_expired') })
    .min(1)
    .max(200),
  code: mfaCodeSchema,
});
export type MfaVerify = z.infer<typeof mfaVerifySchema>;

/** The account's second factor as its owner (and `me`) sees it. */
export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
  /** A client of the user requires a second factor. */
  required: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** Enrolment start: the secret once, its otpauth:// address and a QR code (SVG data URL). */
export const mfaEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr_code: z.string(),
});
export type MfaEnrolment = z.infer<typeof mfaEnrolmentSchema>;

/** Enrolment confirmed by one code. During a sign-in enrolment the challenge goes with it. */
export const mfaEnrolConfirmSchema = z.object({
  code: mfaCodeSchema,
  challenge: z.string().min(1).max(200).optional(),
});
export type MfaEnrolConfirm = z.infer<typeof mfaEnrolConfirmSchema>;

/** The recovery codes, shown once (at enrolment and when regenerated). */
export const mfaRecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type MfaRecoveryCodes = z.infer<typeof mfaRecoveryCodesSchema>;

/** Enrolment at sign-in: a challenge and the code from the new secret. */
export const mfaSignInEnrolStartSchema = z.object({
  challenge: z
    .string({ error: msg('mfa_challenge_expired') })
    .min(1)
    .max(200),
});
export type MfaSignInEnrolStart = z.infer<typeof mfaSignInEnrolStartSchema>;
export const mfaSignInEnrolConfirmSchema = mfaVerifySchema;
export type MfaSignInEnrolConfirm = z.infer<typeof mfaSignInEnrolConfirmSchema>;

/** The session an enrolment at sign-in opens, with the recovery codes shown this once. */
export const mfaEnrolSessionResponseSchema = sessionResponseSchema.extend({
  recovery_codes: z.array(z.string()),
});
export type MfaEnrolSessionResponse = z.infer<typeof mfaEnrolSessionResponseSchema>;

/** Turning the factor off or regenerating codes asks for a current code. */
export const mfaCodeBodySchema = z.object({ code: mfaCodeSchema });
export type MfaCodeBody = z.infer<typeof mfaCodeBodySchema>;

/** An administrator resets a member's enrolment (audited). */
export const mfaResetSchema = z.object({ users_id: idSchema });
export type MfaReset = z.infer<typeof mfaResetSchema>;

/* ---------- OpenID Connect ---------- */

/** What the sign-in page needs to know, from `GET /user/api/auth/v1/oidc/config` (public). */
export const oidcPublicConfigSchema = z.object({
  enabled: z.boolean(),
  /** The button's text after "Sign in with". */
  label: z.string().nullable(),
  /** False: the local form is shown only at `/login/sign-in?local=1`. */
  local_login: z.boolean(),
});
export type OidcPublicConfig = z.infer<typeof oidcPublicConfigSchema>;

/** Error codes the callback puts in `/login/sign-in?sso_error=<code>`; the console translates them. */
export const OIDC_ERROR_CODES = [
  'oidc_failed',
  'oidc_state',
  'oidc_denied',
  'oidc_no_access',
  'oidc_email_unverified',
  /** An account has this email, the identity is not linked to it, and no mapping links it. */
  'oidc_link_required',
  /** The same, on a server whose password form is off: only an administrator can help. */
  'oidc_link_unavailable',
  /** The account is linked to another identity already. */
  'oidc_already_linked',
  /** Linking from My account: the identity is another account's. */
  'oidc_identity_taken',
  /** Linking from My account: the session that started it ended meanwhile. */
  'oidc_link_session',
] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];

/** A claim value (a group) mapped to a client and one of its profiles (platform administrators). */
export const oidcMappingSchema = z.object({
  oidc_mappings_id: z.number().int(),
  claim_value: z.string(),
  rota_clients_id: z.number().int(),
  client_name: z.string(),
  profiles_id: z.number().int(),
  profile_name: z.string(),
  auto_link_domains: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OidcMapping = z.infer<typeof oidcMappingSchema>;

const claimValueSchema = storableString({ error: msg('required_claim_value') })
  .trim()
  .min(1, msg('required_claim_value'))
  .max(200, msg('too_long'));

/** A host name of at least two labels, letters, digits and inner hyphens (IDNs in punycode). */
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

const emailDomainSchema = storableString({ error: msg('invalid_domain') })
  .trim()
  .toLowerCase()
  // "@example.com" is how people often write a mail domain.
  .transform((value) => value.replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN_PATTERN, msg('invalid_domain')));

/**
 * Domains whose verified addresses link an identity of this group to the existing account
 * with that address, without the owner linking it from My account. Exact: `example.com` does
 * not cover `eu.example.com`. Never a platform administrator's account.
 */
export const autoLinkDomainsSchema = z
  .array(emailDomainSchema, { error: msg('invalid_domain') })
  .max(50, msg('too_many_domains'))
  .transform((domains) => [...new Set(domains)]);

export const oidcMappingCreateSchema = z.object({
  claim_value: claimValueSchema,
  rota_clients_id: requiredIdSchema('client_required'),
  profiles_id: requiredIdSchema('required_profile'),
  auto_link_domains: autoLinkDomainsSchema.default([]),
});
export type OidcMappingCreate = z.infer<typeof oidcMappingCreateSchema>;

export const oidcMappingUpdateSchema = oidcMappingCreateSchema.extend({ id: idSchema });
export type OidcMappingUpdate = z.infer<typeof oidcMappingUpdateSchema>;

export const oidcMappingListQuerySchema = listQuerySchema.extend({
  sort: z.enum(['claim_value', 'created_at']).default('claim_value'),
  rota_clients_id: idSchema.optional(),
});
export type OidcMappingListQuery = z.infer<typeof oidcMappingListQuerySchema>;

/** `GET /user/api/auth/v1/oidc/link`: whether one's own account is linked to single sign-on. */
export const oidcLinkStatusSchema = z.object({
  linked: z.boolean(),
  linked_at: z.string().nullable(),
});
export type OidcLinkStatus = z.infer<typeof oidcLinkStatusSchema>;

/** Linking starts with a call (it needs the session), then the browser goes to `url`. */
export const oidcLinkStartSchema = z.object({
  return_to: z.string().max(2000).optional(),
});
export type OidcLinkStart = z.infer<typeof oidcLinkStartSchema>;

export const oidcLinkStartResponseSchema = z.object({ url: z.string() });
export type OidcLinkStartResponse = z.infer<typeof oidcLinkStartResponseSchema>;

/** Unlinking asks for the password: proof that the account keeps a way to sign in. */
export const oidcUnlinkSchema = z.object({
  password: z
    .string({ error: msg('required_password') })
    .min(1, msg('required_password'))
    .max(200, msg('too_long')),
});
export type OidcUnlink = z.infer<typeof oidcUnlinkSchema>;

/**
 * A profile of one client, for choosing it from outside that client (a platform administrator
 * mapping a group to it): the profiles API lists only the selected client's.
 */
export const clientProfileOptionSchema = z.object({
  profiles_id: z.number().int(),
  name: z.string(),
});
export type ClientProfileOption = z.infer<typeof clientProfileOptionSchema>;

/* ---------- Sessions ---------- */

export const SESSION_METHODS = ['password', 'password_totp', 'recovery_code', 'oidc'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/** One of the caller's own sessions; never its token. */
export const userSessionSchema = z.object({
  sessions_id: z.number().int(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  method: z.enum(SESSION_METHODS),
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;

/**
 * A page of the caller's live sessions: the current one first (on page 1), then the others
 * newest first. No search or sort: a person has a handful, a script that signs in with a
 * password instead of an API key may have hundreds.
 */
export const sessionListQuerySchema = listQuerySchema.pick({ page: true, per_page: true });
export type SessionListQuery = z.infer<typeof sessionListQuerySchema>;
