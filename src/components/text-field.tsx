// A labelled text input (Chakra's Field): every form control on the site gets its label, and
// optionally a hint and an error message wired to the input for assistive technology.
import type { ReactNode } from 'react';
import { Field, Input, type InputProps } from '@chakra-ui/react';

export interface TextFieldProps extends Omit<InputProps, 'required'> {
  label: string;
  /** Keeps the label for screen readers only, where the layout already says what to type. */
  hideLabel?: boolean;
  hint?: ReactNode;
  /** Shown under the input; a non-empty error also marks the field invalid. */
  error?: string;
  required?: boolean;
  rootProps?: Field.RootProps;
}

export function TextField({
  label,
  hideLabel,
  hint,
  error,
  required,
  rootProps,
  ...inputProps
}: TextFieldProps) {
  return (
    <Field.Root required={required} invalid={Boolean(error)} {...rootProps}>
      <Field.Label srOnly={hideLabel}>{label}</Field.Label>
      <Input {...inputProps} />
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
