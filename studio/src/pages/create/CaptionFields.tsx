/** The hook caption's inputs: text, where it sits, how big, its style and how long it shows (the API's own values). */
import { useId, type ReactNode } from 'react';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CountedTextInput } from '../../components/CountedText';
import { TEXT_LIMITS } from '../../intake/limits';
import { DURATION_OPTIONS, POSITION_OPTIONS, SIZE_OPTIONS, STYLE_OPTIONS, type Caption } from './caption';

interface Props {
  value: Caption;
  onChange: (next: Caption) => void;
  /** Beside the text input's label, e.g. the hook ideas. */
  textAction?: ReactNode;
  description?: string;
}

export function CaptionFields({ value, onChange, textAction, description }: Props) {
  return (
    <Stack gap="sm">
      <CountedTextInput
        label="Hook text"
        description={description ?? 'The caption over the reaction; leave it empty for none'}
        limit={TEXT_LIMITS.hookText}
        value={value.text}
        onChange={(event) => onChange({ ...value, text: event.currentTarget.value })}
      />
      {textAction}
      <CaptionLookFields value={value} onChange={onChange} withPlace />
    </Stack>
  );
}

/** Style and duration (and, `withPlace`, position and size): what a regenerate may change without the text. */
export function CaptionLookFields({ value, onChange, withPlace = false }: { value: Caption; onChange: (next: Caption) => void; withPlace?: boolean }) {
  const id = useId();
  // Five styles do not fit a phone's width side by side: there they stand one above the other.
  const narrow = useMediaQuery('(max-width: 37.49em)');
  const choice = <K extends keyof Caption>(key: K, label: string, data: { value: Caption[K] & string; label: string }[]) => {
    const stacked = narrow && data.length > 3;
    return (
      <div>
        <Text size="sm" fw={500} id={`${id}-${key}`}>
          {label}
        </Text>
        <SegmentedControl
          aria-labelledby={`${id}-${key}`}
          data={data}
          value={value[key] as string}
          onChange={(next) => onChange({ ...value, [key]: next })}
          orientation={stacked ? 'vertical' : 'horizontal'}
          fullWidth={stacked}
        />
      </div>
    );
  };
  return (
    <>
      {withPlace && choice('position', 'Caption position', POSITION_OPTIONS)}
      {withPlace && choice('size', 'Caption size', SIZE_OPTIONS)}
      {choice('style', 'Caption style', STYLE_OPTIONS)}
      {choice('duration', 'Caption shows', DURATION_OPTIONS)}
    </>
  );
}
