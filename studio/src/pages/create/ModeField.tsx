/** Auto makes the video straight away; Preview stops at the reaction for a look before it is finished. */
import { ChoiceField } from '../../components/ChoiceField';
import type { Mode } from './video-request';

const HELP: Record<Mode, string> = {
  auto: 'The finished video is made straight away.',
  preview: 'You watch the reaction first, then approve it (the caption can still change), regenerate it, or save it to the library.',
};

export function ModeField({ value, onChange }: { value: Mode; onChange: (mode: Mode) => void }) {
  return (
    <ChoiceField
      label="Mode"
      help={HELP[value]}
      value={value}
      onChange={onChange}
      data={[
        { value: 'auto', label: 'Auto' },
        { value: 'preview', label: 'Preview' },
      ]}
    />
  );
}
