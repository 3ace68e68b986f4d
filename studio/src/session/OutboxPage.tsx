/** "Outbox (local)": on the local stack no mail leaves the machine; the mails it would have sent are read here. */
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { QueryStatus } from '../components/QueryStatus';
import { AuthFrame } from './AuthPages';
import { useLocalOutbox, type OutboxMail } from './local-outbox';

const URL_IN_TEXT = /(https?:\/\/[^\s]+)/;

/** The mail's text with its links clickable; a link to this studio opens here. */
function MailText({ text }: { text: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text.split(URL_IN_TEXT).map((part, i) =>
        URL_IN_TEXT.test(part) ? (
          <Anchor key={i} href={part}>
            {part}
          </Anchor>
        ) : (
          part
        ),
      )}
    </Text>
  );
}

function MailCard({ mail }: { mail: OutboxMail }) {
  return (
    <Paper withBorder p="md" component="article" aria-label={mail.subject}>
      <Title order={2} size="h4">
        {mail.subject}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        To {mail.to} · {new Date(mail.sent_at).toLocaleString()}
      </Text>
      <MailText text={mail.text} />
    </Paper>
  );
}

export function OutboxPage() {
  const outbox = useLocalOutbox();
  return (
    <AuthFrame title="Outbox (local): the mails this local stack would have sent" wide>
      <Stack>
        <QueryStatus query={outbox} loading="Loading the outbox" />
        {outbox.data === null && (
          <Alert variant="default" title="No local outbox here">
            This studio is not the local stack: mail goes out by email.
          </Alert>
        )}
        {outbox.data?.length === 0 && <Text>No mail yet.</Text>}
        {outbox.data?.map((mail) => <MailCard key={mail.id} mail={mail} />)}
        <Group justify="space-between">
          <Anchor component={Link} to="/sign-in" size="sm">
            Back to sign in
          </Anchor>
          <Button variant="default" onClick={() => void outbox.refetch()} loading={outbox.isFetching}>
            Refresh
          </Button>
        </Group>
      </Stack>
    </AuthFrame>
  );
}
