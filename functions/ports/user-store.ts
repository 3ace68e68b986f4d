/**
 * Studio users and their sign-in credentials. An email belongs to one user: signing up writes the
 * account, its user and a claim on the email together, or nothing. A user has at most one pending
 * password reset (domain/password-reset.ts), kept with the user, so setting the password and spending
 * the reset are one write.
 */
import type { Account } from '#domain/account';
import type { PasswordReset } from '#domain/password-reset';
import type { PlanName } from '#domain/plans';
import type { User, UserCredentials } from '#domain/user';

export interface SignUpRecord {
  email: string;
  name: string | null;
  /** The account's name. */
  accountName: string;
  plan: PlanName;
  passwordHash: string;
  now: Date;
}

export interface UserStore {
  /** The new account and user, or `email_taken` (then nothing was written). */
  signUp(record: SignUpRecord): Promise<{ account: Account; user: User } | 'email_taken'>;
  findByEmail(email: string): Promise<UserCredentials | undefined>;
  get(accountId: number, userId: number): Promise<User | undefined>;
  /** Sets the password; a pending password reset of the user is void from then on. */
  setPasswordHash(accountId: number, userId: number, passwordHash: string): Promise<void>;
  /** Records the user's pending reset, replacing any earlier one: only the newest can be redeemed. */
  savePasswordReset(reset: PasswordReset): Promise<void>;
  /** The pending reset whose token has this hash, while it is its user's newest and unspent; its expiry is the caller's to judge. */
  findPasswordReset(tokenHash: string): Promise<PasswordReset | undefined>;
  /**
   * Sets the password and spends the reset in one conditional write: true for exactly one of any
   * number of concurrent callers, false once it is spent, replaced or void.
   */
  redeemPasswordReset(reset: PasswordReset, passwordHash: string): Promise<boolean>;
}
