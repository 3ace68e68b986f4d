/**
 * A new reaction video: product, how the reaction is made, auto or preview, the hook caption with
 * a live preview of where it sits, and the sound (auto, a music track or none, and a voice line); or
 * several of them as one batch of variants. Submitting starts the job (or the batch) and opens its
 * page, which follows it.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Button, Card, Grid, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { batchRequest, NO_VARIANTS, variantPairs, type Variants } from './batch-request';
import { CaptionPreview } from './CaptionPreview';
import { CreateActions } from './CreateActions';
import { blankForm, draftText, restoreDraft } from './draft';
import { draftStorage as session } from './draft-storage';
import { HookCard } from './HookCard';
import { MethodFields } from './MethodFields';
import { ModeField } from './ModeField';
import { ProductSelect } from './ProductSelect';
import { EMPTY_REFERENCE, type Reference } from './reference';
import { SoundFields } from './SoundFields';
import { useAvatars } from './useAvatars';
import { useReactions } from './useReactions';
import { useStartBatch, useStartVideo } from './useStartVideos';
import { videoRequest, type CreateForm } from './video-request';
import { VoiceLineField } from './VoiceLineField';

/** The still behind the caption preview: the chosen avatar's, or the saved reaction's avatar. */
function usePreviewImage(form: CreateForm): string | null {
  const avatars = useAvatars();
  const reactions = useReactions();
  const avatarId = form.method === 'reuse' ? reactions.data?.find((reaction) => String(reaction.id) === form.reactionId)?.avatar_id : form.avatarId;
  return avatars.data?.find((avatar) => String(avatar.id) === String(avatarId))?.image_url ?? null;
}

/** `variants`: with no hook text of its own, the preview shows the first variant's hook. */
function PreviewCard({ form, variants }: { form: CreateForm; variants: Variants }) {
  const imageUrl = usePreviewImage(form);
  const first = variants.on && !form.caption.text.trim() ? variants.hooks[0] : undefined;
  const caption = first ? { ...form.caption, text: first } : form.caption;
  return (
    <Card withBorder padding="md" pos="sticky" top={72}>
      <Title order={3} size="h4" mb="sm">
        Caption preview
      </Title>
      <CaptionPreview caption={caption} imageUrl={imageUrl} maxWidth={280} />
      <Text size="xs" c="gray.7" mt="xs">
        Drawn inside the area the short-video apps leave free of their own buttons.
      </Text>
    </Card>
  );
}

/** `above`: what the page shows between its header and the form (the first-run checklist). */
export function CreateVideoForm({ above }: { above?: ReactNode }) {
  const [params] = useSearchParams();
  const [start] = useState(() => restoreDraft(session.read(), params));
  const [form, setForm] = useState<CreateForm>(start.form);
  const [reference, setReference] = useState<Reference>(start.reference);
  const [variants, setVariants] = useState<Variants>(start.variants);
  const [attempted, setAttempted] = useState(false);
  // Kept as it changes: leaving the page (or the studio, in this tab) and coming back finds it as it was.
  useEffect(() => session.write(draftText(form, reference, variants)), [form, reference, variants]);
  // A product named in the address after the form is drawn (the sample product, made from the checklist above) is chosen too.
  // (Adjusted while rendering, as React advises for state that follows a prop: no effect, no second render.)
  const named = params.get('product_id');
  const [seenNamed, setSeenNamed] = useState(named);
  if (named !== seenNamed) {
    setSeenNamed(named);
    if (named) setForm((current) => ({ ...current, productId: named }));
  }
  // A new form from scratch: its parts that hold their own state (a chosen file, hook ideas) start again too.
  const [round, setRound] = useState(0);
  const startOver = () => {
    session.write(null);
    setRound((current) => current + 1);
    setForm(blankForm(new URLSearchParams()));
    setReference(EMPTY_REFERENCE);
    setVariants(NO_VARIANTS);
    setAttempted(false);
  };
  const set = <K extends keyof CreateForm>(key: K, value: CreateForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  const forget = () => session.write(null);
  const single = useStartVideo(forget);
  const batch = useStartBatch(forget);
  const request = variants.on ? batchRequest(form, reference, variants) : videoRequest(form, reference);
  const sending = variants.on ? batch : single;
  const submit = () => {
    setAttempted(true);
    if (typeof request === 'string') return;
    if ('variants' in request) batch.mutate(request);
    else single.mutate(request);
  };

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
              <HookCard form={form} onCaption={(caption) => set('caption', caption)} variants={variants} onVariants={setVariants} />
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
            <PreviewCard form={form} variants={variants} />
          </Grid.Col>
          {/* After the preview on phones, so the preview sits right under the caption it shows. */}
          <Grid.Col span={{ base: 12, md: 7 }}>
            <CreateActions
              missing={attempted && typeof request === 'string' ? request : null}
              error={sending.error}
              onDismiss={sending.reset}
              pending={sending.isPending}
              count={variants.on ? variantPairs(form, variants).length : 1}
              batch={variants.on}
            />
          </Grid.Col>
        </Grid>
      </form>
    </>
  );
}
