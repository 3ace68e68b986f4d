/** A person who signs in to the studio. One per account for now; the records leave room for more. */
export interface User {
  id: number;
  account_id: number;
  email: string;
  name: string | null;
  created_at: string;
}

/** A user with what their password is checked against: only the sign-in paths read it. */
export interface UserCredentials {
  user: User;
  password_hash: string;
}

export const userView = ({ id, email, name, created_at }: User) => ({ id, email, name, created_at });
