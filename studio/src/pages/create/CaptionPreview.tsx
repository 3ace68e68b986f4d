/**
 * The caption as it will be burnt in, live while it is typed: the API draws it with the videos' own
 * renderer (POST /captions/preview) on a transparent 1080x1920 layer, laid here over a still: for a
 * preview waiting for approval the job's own reaction at its peak without its caption
 * (`preview_still_url`), before a job the chosen avatar, else a neutral 9:16 frame. For a job the
 * layer keeps clear of that job's face as its video will.
 */
import { AspectRatio, Box, Image, Loader } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Caption } from './caption';

/** Typing pauses this long before the layer is asked for: one drawing per word, not per key. */
const TYPING_PAUSE_MS = 300;

/**
 * The layer as a data: URL. An object URL would need revoking when the next drawing replaces it; a
 * data: URL is garbage like any string, and a layer is a few tens of KB.
 */
async function captionLayer(caption: Omit<Caption, 'duration'>, jobId: number | undefined): Promise<string> {
  const body = { text: caption.text, position: caption.position, size: caption.size, style: caption.style, ...(jobId ? { job_id: jobId } : {}) };
  const { data, error } = await api.POST('/captions/preview', { body, parseAs: 'blob' });
  if (error || !data) throw new Error('The caption preview could not be drawn');
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The caption preview could not be read'));
    reader.readAsDataURL(data as Blob);
  });
}

export function CaptionPreview({ caption, imageUrl, jobId, maxWidth = 240 }: { caption: Caption; imageUrl?: string | null; jobId?: number; maxWidth?: number }) {
  const text = caption.text.trim();
  const [wanted] = useDebouncedValue({ text, position: caption.position, size: caption.size, style: caption.style }, TYPING_PAUSE_MS);
  const layer = useQuery({
    queryKey: ['caption-preview', wanted, jobId ?? null],
    queryFn: () => captionLayer(wanted, jobId),
    enabled: wanted.text.length > 0,
    // The same inputs draw the same picture.
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
  const url = text ? layer.data : undefined;
  const label = text ? `Caption preview: "${text}", ${caption.size}, ${caption.style.replace('_', ' ')}, at the ${caption.position}` : 'Caption preview: no caption';
  return (
    <Box maw={maxWidth} w="100%">
      <AspectRatio ratio={9 / 16}>
        <Box role="img" aria-label={label} aria-busy={layer.isFetching} pos="relative" style={{ overflow: 'hidden', borderRadius: 8, background: 'linear-gradient(180deg, #3b3552 0%, #1f1b2e 100%)' }}>
          {imageUrl && <Image src={imageUrl} alt="" pos="absolute" inset={0} w="100%" h="100%" fit="cover" />}
          {url && <Image src={url} alt="" pos="absolute" inset={0} w="100%" h="100%" fit="fill" data-testid="caption-layer" />}
          {text && layer.isFetching && <Loader size="xs" pos="absolute" right={6} bottom={6} />}
        </Box>
      </AspectRatio>
    </Box>
  );
}
