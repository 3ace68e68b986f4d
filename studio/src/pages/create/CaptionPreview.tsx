/**
 * The caption as it will be burnt in, live while it is typed: over a still of the chosen avatar or a
 * neutral 9:16 frame, scaled from the renderer's 1080-wide geometry to whatever width the box has.
 */
import { AspectRatio, Box, Image, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { captionLayout, type Caption } from './caption';

/** A caption taller than its band grows away from the frame edge (top: down, bottom: up), as the renderer does. */
const ALIGN: Record<Caption['position'], { flexDirection: 'column' | 'column-reverse'; justifyContent: string }> = {
  top: { flexDirection: 'column', justifyContent: 'safe center' },
  middle: { flexDirection: 'column', justifyContent: 'center' },
  bottom: { flexDirection: 'column-reverse', justifyContent: 'safe center' },
};

export function CaptionPreview({ caption, imageUrl, maxWidth = 240 }: { caption: Caption; imageUrl?: string | null; maxWidth?: number }) {
  const { ref, width } = useElementSize();
  const layout = captionLayout(caption, width || maxWidth);
  const text = caption.text.trim();
  const label = text ? `Caption preview: "${text}", ${caption.size}, at the ${caption.position}` : 'Caption preview: no caption';
  return (
    <Box maw={maxWidth} w="100%">
      <AspectRatio ratio={9 / 16}>
        <Box ref={ref} role="img" aria-label={label} pos="relative" style={{ overflow: 'hidden', borderRadius: 8, background: 'linear-gradient(180deg, #3b3552 0%, #1f1b2e 100%)' }}>
          {imageUrl && <Image src={imageUrl} alt="" pos="absolute" inset={0} w="100%" h="100%" fit="cover" />}
          {text && (
            <Box pos="absolute" left={layout.left} right={layout.right} top={layout.top} h={layout.height} style={{ display: 'flex', ...ALIGN[caption.position] }}>
              <Text
                component="span"
                ta="center"
                c="white"
                fw={800}
                style={{
                  fontFamily: 'Montserrat, "Arial Black", "Helvetica Neue", Arial, sans-serif',
                  fontSize: layout.fontPx,
                  lineHeight: 1.22,
                  WebkitTextStroke: `${layout.outlinePx}px rgba(0, 0, 0, 0.92)`,
                  paintOrder: 'stroke fill',
                  overflowWrap: 'anywhere',
                  whiteSpace: 'pre-line',
                }}
              >
                {text}
              </Text>
            </Box>
          )}
        </Box>
      </AspectRatio>
    </Box>
  );
}
