/**
 * The hook caption's card on New video: the best hook of the last 30 days and the text (ideas one
 * click away), its look, and the variants, whose hooks the ideas (and the best hook) add to instead
 * of replacing the text while variants are on.
 */
import { Card, Divider, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { HookIdeas } from '../../components/HookIdeas';
import { BestHook } from './BestHook';
import { withHook, type Variants } from './batch-request';
import { CaptionFields } from './CaptionFields';
import { VariantsFields } from './VariantsFields';
import type { CreateForm } from './video-request';

interface Props {
  form: CreateForm;
  onCaption: (caption: CreateForm['caption']) => void;
  variants: Variants;
  onVariants: (next: Variants) => void;
}

export function HookCard({ form, onCaption, variants, onVariants }: Props) {
  const productId = form.productId ? Number(form.productId) : null;
  const pickLabel = variants.on ? 'Add' : 'Use';
  const pick = (text: string) => (variants.on ? onVariants(withHook(variants, text)) : onCaption({ ...form.caption, text }));
  const ideas = productId ? (
    // Ten ideas are long; they scroll in place so the caption controls stay near the text.
    <ScrollArea.Autosize mah={300} type="auto" offsetScrollbars>
      <HookIdeas key={productId} productId={productId} pickLabel={pickLabel} onPick={pick} />
    </ScrollArea.Autosize>
  ) : (
    <Text size="xs" c="gray.7">
      Choose a product to get hook ideas for it.
    </Text>
  );
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <Title order={3} size="h4">
          Hook caption
        </Title>
        <BestHook pickLabel={pickLabel} onPick={pick} />
        <CaptionFields value={form.caption} onChange={onCaption} textAction={ideas} />
        <Divider />
        <VariantsFields form={form} value={variants} onChange={onVariants} />
      </Stack>
    </Card>
  );
}
