/**
 * Studio users and their sign-in credentials. An email belongs to one user: signing up writes the
 * account, its user and a claim on the email together, or nothing.
 */
import type { Account } from '#domain/account';
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
  setPasswordHash(accountId: number, userId: number, passwordHash: string): Promise<void>;
}
