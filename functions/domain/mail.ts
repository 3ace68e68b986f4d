/** A mail the service sends to a person: plain text, to one address (the Mailer port sends it). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}
