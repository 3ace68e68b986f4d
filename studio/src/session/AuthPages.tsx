/** Sign in and sign up: the only pages a visitor without a session sees. */
import { useState, type FormEvent } from 'react';
import { Anchor, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { MAIN_ID } from '../app/SkipLink';
import { CountedTextInput } from '../components/CountedText';
import { ProblemAlert } from '../components/ProblemAlert';
import { TEXT_LIMITS } from '../intake/limits';
import { counted } from '../intake/text-count';
import { useSession } from './session';

function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main" id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
      <Paper withBorder shadow="sm" p="xl" w={400} maw="100%">
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
          <ProblemAlert error={error} action="sign-in" />
          <TextInput name="email" type="email" label="Email" autoComplete="email" required />
          <PasswordInput name="password" label="Password" autoComplete="current-password" required />
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
  const [name, setName] = useState('');
  const { submit, busy, error } = useFormAction((form) =>
    signUp(String(form.get('email')), String(form.get('password')), String(form.get('name') ?? '').trim() || undefined),
  );
  return (
    <AuthFrame title="Create your account — the free plan, no card needed">
      <form onSubmit={submit}>
        <Stack>
          <ProblemAlert error={error} action="sign-up" />
          <CountedTextInput name="name" label="Your name" description="Optional" autoComplete="name" limit={TEXT_LIMITS.personName} value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <TextInput name="email" type="email" label="Email" autoComplete="email" required />
          <PasswordInput name="password" label="Password" description="At least 10 characters, not a common password" autoComplete="new-password" minLength={10} required />
          <Button type="submit" loading={busy} disabled={counted(TEXT_LIMITS.personName, name).over > 0}>
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
