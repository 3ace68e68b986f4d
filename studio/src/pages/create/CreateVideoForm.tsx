/**
 * A new reaction video: product, how the reaction is made, auto or preview, the hook caption with
 * a live preview of where it sits, and the sound (auto, a music track or none, and a voice line).
 * Submitting starts the job and opens its page, which follows it.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Card, Grid, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { HookIdeas } from '../../components/HookIdeas';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { UnitsLeft } from '../usage/UnitsLeft';
import { CaptionFields } from './CaptionFields';
import { CaptionPreview } from './CaptionPreview';
import { MethodFields } from './MethodFields';
import { ModeField } from './ModeField';
import { ProductSelect } from './ProductSelect';
import { blankForm, DRAFT_KEY, draftText, restoreDraft } from './draft';
import { EMPTY_REFERENCE, type Reference } from './reference';
import { SoundFields } from './SoundFields';
import { useAvatars } from './useAvatars';
import { useReactions } from './useReactions';
import { videoRequest, type CreateForm, type CreateVideoBody } from './video-request';
import { VoiceLineField } from './VoiceLineField';

/** sessionStorage, where a browser allows it (a private window may not): the draft is a convenience. */
const session = {
  read: () => {
    try {
      return sessionStorage.getItem(DRAFT_KEY);
    } catch {
      return null;
    }
  },
  write: (text: string | null) => {
    try {
      if (text === null) sessionStorage.removeItem(DRAFT_KEY);
      else sessionStorage.setItem(DRAFT_KEY, text);
    } catch {
      // Not kept: the form still works.
    }
  },
};

/** The still behind the caption preview: the chosen avatar's, or the saved reaction's avatar. */
function usePreviewImage(form: CreateForm): string | null {
  const avatars = useAvatars();
  const reactions = useReactions();
  const avatarId = form.method === 'reuse' ? reactions.data?.find((reaction) => String(reaction.id) === form.reactionId)?.avatar_id : form.avatarId;
  return avatars.data?.find((avatar) => String(avatar.id) === String(avatarId))?.image_url ?? null;
}

/** One key per distinct request: sending the same form again after a lost answer returns the same job. */
function useIdempotencyKey() {
  const last = useRef<{ body: string; key: string } | null>(null);
  return (body: CreateVideoBody) => {
    const text = JSON.stringify(body);
    if (last.current?.body !== text) last.current = { body: text, key: crypto.randomUUID() };
    return last.current.key;
  };
}

/** `above`: what the page shows between its header and the form (the first-run checklist). */
export function CreateVideoForm({ above }: { above?: ReactNode }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [start] = useState(() => restoreDraft(session.read(), params));
  const [form, setForm] = useState<CreateForm>(start.form);
  const [reference, setReference] = useState<Reference>(start.reference);
  const queries = useQueryClient();
  // Kept as it changes: leaving the page (or the studio, in this tab) and coming back finds it as it was.
  useEffect(() => session.write(draftText(form, reference)), [form, reference]);
  // A new form from scratch: its parts that hold their own state (a chosen file, hook ideas) start again too.
  const [round, setRound] = useState(0);
  const startOver = () => {
    session.write(null);
    setRound((current) => current + 1);
    setForm(blankForm(new URLSearchParams()));
    setReference(EMPTY_REFERENCE);
    setAttempted(false);
  };
  const [attempted, setAttempted] = useState(false);
  const set = <K extends keyof CreateForm>(key: K, value: CreateForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const imageUrl = usePreviewImage(form);
  const keyFor = useIdempotencyKey();

  const request = videoRequest(form, reference);
  const create = useMutation({
    mutationFn: async (body: CreateVideoBody) => {
      const answer = (await unwrap(api.POST('/videos', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } }))).data;
      // Only a dry run answers a quote; this call is never one.
      if (!('id' in answer)) throw new Error('The API answered a quote instead of starting the job; please try again.');
      return answer;
    },
    onSuccess: (job) => {
      session.write(null);
      // The watch on jobs (JobWatcher) learns of the new one, to tell when it finishes.
      void queries.invalidateQueries({ queryKey: ['jobs'] });
      void queries.invalidateQueries({ queryKey: ['usage'] });
      navigate(`/jobs/${job.id}`);
    },
  });

  const submit = () => {
    setAttempted(true);
    if (typeof request !== 'string') create.mutate(request);
  };

  const productId = form.productId ? Number(form.productId) : null;
  return (
    <>
      <PageHeader
        title="New video"
        description={start.restored ? 'Your draft from earlier, kept while you worked elsewhere in the studio.' : "An avatar reacts under your hook caption, then the product's demo plays."}
        actions={
          <Button variant="default" onClick={startOver}>
            Start over
          </Button>
        }
      />
      {above}
      <form
        key={round}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              <Card withBorder padding="md">
                <Stack gap="md">
                  <Title order={3} size="h4">
                    Product and reaction
                  </Title>
                  <ProductSelect value={form.productId} onChange={(productId) => set('productId', productId)} error={attempted && !form.productId ? 'Choose a product' : undefined} />
                  <MethodFields form={form} set={set} reference={reference} setReference={setReference} />
                  <ModeField value={form.mode} onChange={(mode) => set('mode', mode)} />
                </Stack>
              </Card>
              <Card withBorder padding="md">
                <Stack gap="md">
                  <Title order={3} size="h4">
                    Hook caption
                  </Title>
                  <CaptionFields
                    value={form.caption}
                    onChange={(caption) => set('caption', caption)}
                    textAction={
                      productId ? (
                        // Ten ideas are long; they scroll in place so the caption controls stay near the text.
                        <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars>
                          <HookIdeas key={productId} productId={productId} onPick={(text) => set('caption', { ...form.caption, text })} />
                        </ScrollArea.Autosize>
                      ) : (
                        <Text size="xs" c="gray.7">
                          Choose a product to get hook ideas for it.
                        </Text>
                      )
                    }
                  />
                </Stack>
              </Card>
              <Card withBorder padding="md">
                <Stack gap="md">
                  <Title order={3} size="h4">
                    Sound
                  </Title>
                  <SoundFields value={form.sound} onChange={(sound) => set('sound', sound)} error={attempted && form.sound.sound === 'music' && !form.sound.musicId ? 'Choose a track' : undefined} />
                  <VoiceLineField value={form.voiceLine} onChange={(voiceLine) => set('voiceLine', voiceLine)} disabled={form.method === 'reuse'} />
                </Stack>
              </Card>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Card withBorder padding="md" pos="sticky" top={72}>
              <Title order={3} size="h4" mb="sm">
                Caption preview
              </Title>
              <CaptionPreview caption={form.caption} imageUrl={imageUrl} maxWidth={280} />
              <Text size="xs" c="gray.7" mt="xs">
                Drawn inside the area the short-video apps leave free of their own buttons.
              </Text>
            </Card>
          </Grid.Col>
          {/* After the preview on phones, so the preview sits right under the caption it shows. */}
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="sm">
              {attempted && typeof request === 'string' && (
                <Text c="red.8" size="sm" role="alert">
                  {request}
                </Text>
              )}
              <ProblemAlert error={create.error} onClose={create.reset} />
              <Group>
                <Button type="submit" size="md" loading={create.isPending}>
                  Create video
                </Button>
                <UnitsLeft cost={1} />
              </Group>
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
    </>
  );
}
