/**
 * Avatars: the people who react in videos. The stock ones every account has come first (ready to
 * pick, not counted against the plan's cap, not deletable), then the account's own, drawn from a
 * prompt or uploaded, newest first.
 */
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { AvatarCard } from './AvatarCard';
import { CreateAvatarForm } from './CreateAvatarForm';
import { useAvatars, type Avatar } from './avatars-api';

function AvatarGrid({ avatars, label }: { avatars: Avatar[]; label: string }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {avatars.map((avatar) => (
        <li key={avatar.id}>
          <AvatarCard avatar={avatar} />
        </li>
      ))}
    </SimpleGrid>
  );
}

export default function AvatarsPage() {
  const avatars = useAvatars();
  const stock = avatars.data?.filter((avatar) => avatar.stock) ?? [];
  const own = avatars.data?.filter((avatar) => !avatar.stock) ?? [];
  return (
    <>
      <PageHeader title="Avatars" description="The faces that react in your videos. Pick a stock one on New video, or make your own: describe a person, or upload a photo." />
      <Stack>
        <CreateAvatarForm />
        <QueryStatus query={avatars} loading="Loading avatars" centered />
        {avatars.data && (
          <Stack gap="xs" component="section" aria-labelledby="own-avatars-title">
            <Title order={3} size="h4" id="own-avatars-title">
              Your avatars
            </Title>
            {own.length > 0 ? (
              <AvatarGrid avatars={own} label="Your avatars" />
            ) : (
              <Paper withBorder p="lg">
                <Text>None of your own yet. Describe a person above, or upload a clear, front-facing photo; until then the stock avatars below are ready to use.</Text>
              </Paper>
            )}
          </Stack>
        )}
        {stock.length > 0 && (
          <Stack gap="xs" component="section" aria-labelledby="stock-avatars-title">
            <Title order={3} size="h4" id="stock-avatars-title">
              Stock avatars
            </Title>
            <Text size="sm" c="gray.7">
              Every account has them: ready to pick, not counted against your plan’s avatars.
            </Text>
            <AvatarGrid avatars={stock} label="Stock avatars" />
          </Stack>
        )}
      </Stack>
    </>
  );
}
