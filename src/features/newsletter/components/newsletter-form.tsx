// The newsletter signup form (footer, blog): validates the e-mail, asks for the confirmation
// e-mail (double opt-in), and reports the outcome in accessible messages rather than browser alerts.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Alert, Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { subscribeSchema, useSubscribeToNewsletter } from '../api/subscribe';
import { NEWSLETTER_TEXT } from '../../../config/site';

export function NewsletterForm({
  id = 'newsletter',
  tone = 'dark',
}: {
  id?: string;
  tone?: 'dark' | 'light';
}) {
  const [status, setStatus] = useState<'idle' | 'subscribed' | 'failed'>('idle');
  const subscribe = useSubscribeToNewsletter();
  const formik = useFormik({
    initialValues: { email: '' },
    validationSchema: subscribeSchema,
    onSubmit: async (values, helpers) => {
      setStatus('idle');
      try {
        await subscribe.mutateAsync(values);
        helpers.resetForm();
        setStatus('subscribed');
      } catch {
        setStatus('failed');
      }
    },
  });

  // Checked from the values themselves: Formik's isValid turns true after resetForm() clears errors.
  const invalid = !subscribeSchema.isValidSync(formik.values);
  const showError = formik.submitCount > 0 && Boolean(formik.errors.email);
  const dark = tone === 'dark';

  return (
    <form onSubmit={formik.handleSubmit} noValidate aria-labelledby={`${id}-title`}>
      <Stack gap="2">
        <Text id={`${id}-title`} fontWeight="semibold" color={dark ? 'white' : 'fg'}>
          Get product updates
        </Text>
        <Field.Root invalid={showError}>
          <Field.Label srOnly>Email address</Field.Label>
          <HStack gap="2" w="full" align="flex-start">
            <Input
              name="email"
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              value={formik.values.email}
              onChange={(event) => {
                formik.handleChange(event);
                if (status !== 'idle') setStatus('idle');
              }}
              onBlur={formik.handleBlur}
              bg={dark ? 'gray.900' : 'bg'}
              borderColor={dark ? 'gray.700' : undefined}
              color={dark ? 'white' : undefined}
              _placeholder={{ color: dark ? 'gray.400' : 'fg.subtle' }}
            />
            <Button
              type="submit"
              colorPalette="teal"
              flexShrink={0}
              loading={formik.isSubmitting}
              // Not `disabled`: a click must still count as a submit attempt so the message can appear.
              aria-disabled={invalid}
              opacity={invalid ? 0.6 : 1}
              cursor={invalid ? 'not-allowed' : 'pointer'}
            >
              Subscribe
            </Button>
          </HStack>
          {showError && (
            <Field.ErrorText color={dark ? 'red.300' : undefined}>
              {formik.errors.email}
            </Field.ErrorText>
          )}
        </Field.Root>
        {status === 'subscribed' && (
          <Text role="status" color={dark ? 'teal.300' : 'teal.700'} fontSize="sm">
            {NEWSLETTER_TEXT.success}
          </Text>
        )}
        {status === 'failed' && (
          <Alert.Root status="error" size="sm" role="alert">
            <Alert.Indicator />
            <Alert.Title>{NEWSLETTER_TEXT.failure}</Alert.Title>
          </Alert.Root>
        )}
      </Stack>
    </form>
  );
}
