/** Avatars: the people who react in videos, drawn from a prompt or uploaded, newest first. */
import { Center, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { AvatarCard } from './AvatarCard';
import { CreateAvatarForm } from './CreateAvatarForm';
import { useAvatars } from './avatars-api';

export default function AvatarsPage() {
  const avatars = useAvatars();
  return (
    <>
      <PageHeader title="Avatars" description="The faces that react in your videos. Describe one, or upload a photo." />
      <Stack>
        <CreateAvatarForm />
        <ProblemAlert error={avatars.error} />
        {avatars.isPending && (
          <Center p="xl">
            <Loader aria-label="Loading avatars" />
          </Center>
        )}
        {avatars.data && avatars.data.length === 0 && (
          <Paper withBorder p="xl">
            <Text ta="center">No avatars yet. Describe a person above, or upload a photo, to make the first.</Text>
          </Paper>
        )}
        {avatars.data && avatars.data.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} component="ul" aria-label="Your avatars" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {avatars.data.map((avatar) => (
              <li key={avatar.id}>
                <AvatarCard avatar={avatar} />
              </li>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </>
  );
}
