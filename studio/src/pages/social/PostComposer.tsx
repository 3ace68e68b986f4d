/** Publishing a finished video: POST /social/posts, now or at a chosen time, or as a draft held at the provider. */
import { useEffect, useRef } from 'react';
import { Anchor, Button, Checkbox, Group, Loader, Paper, Radio, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notify } from '../../components/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { CountedTextarea } from '../../components/CountedText';
import { ProblemAlert } from '../../components/ProblemAlert';
import { CAPTION_LIMITS, captionLimitOf } from '../../intake/limits';
import { countOf } from '../../intake/text-count';
import { ChannelPicker } from './ChannelPicker';
import { localInputToIso, localTimeZone, scheduleProblem, toLocalInputValue } from './schedule';
import { fetchVideoChoices, SOCIAL_KEYS } from './social-queries';
import { PLATFORM_LABEL, PROVIDER_LABEL, STATUS_WORDS, type Connection, type Provider } from './social-words';

interface Values {
  videoId: string | null;
  provider: Provider | null;
  accountIds: string[];
  caption: string;
  when: 'now' | 'later';
  scheduleAt: string;
  draft: boolean;
}

/** The strictest limit among the chosen channels' networks, and which network sets it. */
function captionLimit(connection: Connection | undefined, accountIds: string[]): { limit: number; network: string } | null {
  const platforms = (connection?.channels ?? []).filter((c) => accountIds.includes(c.id)).map((c) => c.platform);
  if (platforms.length === 0) return null;
  const strictest = platforms.reduce((a, b) => (CAPTION_LIMITS[a] <= CAPTION_LIMITS[b] ? a : b));
  return { limit: CAPTION_LIMITS[strictest], network: PLATFORM_LABEL[strictest] };
}

/** No network takes more, whatever the channels: the API's own ceiling before any channel is chosen. */
const CAPTION_MAX = Math.max(...Object.values(CAPTION_LIMITS));

interface Props {
  connections: Connection[];
  onPosted: () => void;
  /** A video to post, chosen on its page ("Post it"), and the caption to start from (its hook). */
  videoId?: string | null;
  suggestedCaption?: string | null;
}

export function PostComposer({ connections, onPosted, videoId = null, suggestedCaption }: Props) {
  const queries = useQueryClient();
  const usable = connections.filter((c) => c.status === 'active');
  const videos = useQuery({ queryKey: SOCIAL_KEYS.videoChoices, queryFn: fetchVideoChoices });
  // Fields are marked withAsterisk, not required: the form's own checks then say what is missing in words.
  const form = useForm<Values>({
    initialValues: { videoId, provider: usable.length === 1 ? usable[0]!.provider : null, accountIds: [], caption: '', when: 'now', scheduleAt: '', draft: false },
    validate: {
      videoId: (value) => (value ? null : 'Choose a video'),
      provider: (value) => (value ? null : 'Choose a provider'),
      accountIds: (value) => (value.length ? null : 'Choose at least one channel'),
      caption: (value, values) => {
        if (values.provider === 'provider_b' && !value.trim()) return `${PROVIDER_LABEL.provider_b} needs a caption`;
        const limit = captionLimit(connections.find((c) => c.provider === values.provider), values.accountIds);
        const max = limit?.limit ?? CAPTION_MAX;
        return countOf(captionLimitOf(max), value) > max ? `${limit?.network ?? 'No network'} allows at most ${max} characters` : null;
      },
      scheduleAt: (value, values) => (values.when === 'later' ? scheduleProblem(value) : null),
    },
  });
  const { values } = form;
  const connection = connections.find((c) => c.provider === values.provider);
  const limit = captionLimit(connection, values.accountIds);

  // The hook arrives after the form is drawn; it fills the caption only while nothing was typed there.
  const suggested = useRef(false);
  const { setFieldValue, isDirty } = form;
  useEffect(() => {
    if (suggested.current || !suggestedCaption) return;
    suggested.current = true;
    if (!isDirty('caption')) setFieldValue('caption', suggestedCaption);
  }, [suggestedCaption, isDirty, setFieldValue]);

  const create = useMutation({
    mutationFn: async (v: Values) =>
      (
        await unwrap(
          api.POST('/social/posts', {
            body: {
              provider: v.provider!,
              video_id: Number(v.videoId),
              account_ids: v.accountIds,
              caption: v.caption,
              schedule_at: v.when === 'later' ? localInputToIso(v.scheduleAt) : null,
              draft: v.draft,
            },
          }),
        )
      ).data,
    onSuccess: (post) => {
      void queries.invalidateQueries({ queryKey: SOCIAL_KEYS.allPosts });
      notify(`Post ${post.id} handed to ${PROVIDER_LABEL[post.provider]}: ${STATUS_WORDS[post.status].label.toLowerCase()}.`, 'green');
      form.setValues({ caption: '', accountIds: [], when: 'now', scheduleAt: '', draft: false });
      onPosted();
    },
  });

  const submitLabel = values.draft ? 'Save draft' : values.when === 'later' ? 'Schedule post' : 'Publish now';

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="new-post-heading">
      <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
        <Stack>
          <Title order={3} id="new-post-heading">
            New post
          </Title>
          <ProblemAlert error={videos.error ?? create.error} />
          {videos.isPending && <Loader size="sm" aria-label="Loading videos" />}
          {videos.data?.length === 0 && (
            <Text size="sm">
              No finished videos yet.{' '}
              <Anchor component={Link} to="/create">
                Make a video
              </Anchor>{' '}
              first, then come back to post it.
            </Text>
          )}
          {!!videos.data?.length && (
            <Select label="Video" placeholder="Choose a finished video" data={videos.data.map(({ value, label }) => ({ value, label }))} searchable withAsterisk nothingFoundMessage="No video matches" {...form.getInputProps('videoId')} />
          )}
          <ChannelPicker
            connections={usable}
            provider={values.provider}
            onProviderChange={(provider) => form.setValues({ provider, accountIds: [] })}
            accountIds={values.accountIds}
            onAccountIdsChange={(ids) => form.setFieldValue('accountIds', ids)}
            error={form.errors.accountIds as string | undefined}
          />
          <CountedTextarea
            label="Caption"
            withAsterisk={values.provider === 'provider_b'}
            autosize
            minRows={3}
            maxRows={8}
            limit={captionLimitOf(limit?.limit ?? CAPTION_MAX)}
            description={limit ? `${limit.network}'s limit, the strictest of the chosen channels` : 'Choose channels to see their networks’ limit'}
            {...form.getInputProps('caption')}
          />
          <Radio.Group label="When" {...form.getInputProps('when')}>
            <Group mt="xs">
              <Radio value="now" label="As soon as possible" />
              <Radio value="later" label="At a date and time" />
            </Group>
          </Radio.Group>
          {values.when === 'later' && (
            <TextInput
              type="datetime-local"
              label="Publish at"
              description={`Your local time (${localTimeZone()}), at most a year ahead`}
              min={toLocalInputValue(new Date())}
              withAsterisk
              {...form.getInputProps('scheduleAt')}
            />
          )}
          <Checkbox label="Save as a draft: it waits at the provider and is not published until approved there" {...form.getInputProps('draft', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending} disabled={!videos.data?.length}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
