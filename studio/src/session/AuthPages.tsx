/** Sign in, sign up and password reset: the pages a visitor without a session sees. */
import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Center, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { unwrap } from '#client/result';
import { isApiError } from '#client/errors';
import { api } from '../api/client';
import { ProblemAlert } from '../components/ProblemAlert';
import { HOME } from '../app/pages';
import { useSession } from './session';
import { useLocalOutbox } from './local-outbox';

const PASSWORD_RULE = 'At least 10 characters, not a common password';

export function AuthFrame({ title, wide, children }: { title: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={wide ? 720 : 400} maw="100%">
        <Title order={1} size="h2" mb="xs">
          Reaction Studio
        </Title>
        <Text c="dimmed" mb="lg">
          {title}
        </Text>
        {children}
      </Paper>
    </Center>
  );
}

/** A form whose submit runs `action` once at a time, keeping its refusal to show. */
function useFormAction(action: (form: FormData) => Promise<void>) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      await action(form);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }
  return { submit, busy, error };
}

export function SignInPage() {
  const { signIn } = useSession();
  const { submit, busy, error } = useFormAction((form) => signIn(String(form.get('email')), String(form.get('password'))));
  return (
    <AuthFrame title="Sign in to make reaction videos">
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={error} />
          <TextInput name="email" type="email" label="Email" autoComplete="email" required />
          <PasswordInput name="password" label="Password" autoComplete="current-password" required />
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
          <Text size="sm">
            New here?{' '}
            <Anchor component={Link} to="/sign-up">
              Create an account
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}

export function SignUpPage() {
  const { signUp } = useSession();
  const { submit, busy, error } = useFormAction((form) =>
    signUp(String(form.get('email')), String(form.get('password')), String(form.get('name') ?? '').trim() || undefined),
  );
  return (
    <AuthFrame title="Create your account — the free plan, no card needed">
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={error} />
          <TextInput name="name" label="Your name" autoComplete="name" />
          <TextInput name="email" type="email" label="Email" autoComplete="email" required />
          <PasswordInput name="password" label="Password" description={PASSWORD_RULE} autoComplete="new-password" minLength={10} required />
          <Button type="submit" loading={busy}>
            Create account
          </Button>
          <Text size="sm">
            Already have an account?{' '}
            <Anchor component={Link} to="/sign-in">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}

/** The email for a reset link; the answer is the same whether or not it has an account, and so is this page. */
export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string>();
  const { submit, busy, error } = useFormAction(async (form) => {
    const email = String(form.get('email'));
    await unwrap(api.POST('/auth/password-reset', { body: { email } }));
    setSentTo(email.trim());
  });
  const outbox = useLocalOutbox(sentTo !== undefined);
  return (
    <AuthFrame title="Reset your password">
      {sentTo === undefined ? (
        <form onSubmit={submit}>
          <Stack>
            <ProblemAlert error={error} />
            <Text size="sm">Enter the email you signed up with; we mail you a link to choose a new password.</Text>
            <TextInput name="email" type="email" label="Email" autoComplete="email" required />
            <Button type="submit" loading={busy}>
              Send the link
            </Button>
            <Anchor component={Link} to="/sign-in" size="sm">
              Back to sign in
            </Anchor>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Alert variant="default" title="Check your mail" role="status">
            If {sentTo} has an account, a link to reset its password is on its way. It works for 30 minutes, once; asking again replaces it.
          </Alert>
          {outbox.data && (
            <Text size="sm">
              This is the local stack, which sends no mail:{' '}
              <Anchor component={Link} to="/outbox">
                open the outbox (local)
              </Anchor>
              .
            </Text>
          )}
          <Anchor component={Link} to="/sign-in" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      )}
    </AuthFrame>
  );
}

/** The mailed link's page: a new password for the token in its address; success signs in. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { resetPassword } = useSession();
  const [mismatch, setMismatch] = useState(false);
  const { submit, busy, error } = useFormAction(async (form) => {
    const password = String(form.get('password'));
    const differ = password !== String(form.get('repeat'));
    setMismatch(differ);
    if (differ) return;
    const revoked = await resetPassword(token, password);
    navigate(HOME, { replace: true });
    notifications.show({ color: 'green', title: 'Password set', message: `You are signed in.${revoked ? ' Every other session was signed out.' : ''}`, autoClose: 10_000 });
  });
  const linkIsBad = isApiError(error) && error.param === 'token';
  if (!token || linkIsBad) {
    return (
      <AuthFrame title="Reset your password">
        <Stack>
          {linkIsBad ? <ProblemAlert error={error} /> : <Text>This page needs the link from the password-reset mail.</Text>}
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Ask for a new link
            </Anchor>
            <Anchor component={Link} to="/sign-in" size="sm">
              Back to sign in
            </Anchor>
          </Group>
        </Stack>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Choose a new password">
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={error} />
          <PasswordInput name="password" label="New password" description={PASSWORD_RULE} autoComplete="new-password" minLength={10} required />
          <PasswordInput name="repeat" label="Confirm password" autoComplete="new-password" required error={mismatch ? 'The two passwords differ' : undefined} />
          <Text size="sm">Setting it signs you in here and out everywhere else.</Text>
          <Button type="submit" loading={busy}>
            Set password
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
