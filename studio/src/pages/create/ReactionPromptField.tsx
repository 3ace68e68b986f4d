/** The reaction's prompt (`prompt` on POST /videos and regenerate): who reacts and how, counted against the API's limit. */
import { CountedTextarea } from '../../components/CountedText';
import { TEXT_LIMITS } from '../../intake/limits';

interface Props {
  value: string;
  onChange: (prompt: string) => void;
  description: string;
  required?: boolean;
}

export function ReactionPromptField({ value, onChange, description, required }: Props) {
  return (
    <CountedTextarea
      label="Reaction prompt"
      description={description}
      autosize
      minRows={2}
      limit={TEXT_LIMITS.reactionPrompt}
      required={required}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
