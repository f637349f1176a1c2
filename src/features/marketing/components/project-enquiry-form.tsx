// /custom's call to action: a project enquiry form that posts to the site's own tinyback form.
// Validation happens here first (formik + yup, messages under each field); the endpoint's own
// refusals come back as a sentence and, for a field it rejected, under that field.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Alert, Box, Button, Field, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { SendIcon } from 'lucide-react';
import { TextField } from '../../../components/text-field';
import {
  EnquiryError,
  projectEnquirySchema,
  useSendProjectEnquiry,
  type ProjectEnquiry,
} from '../api/send-project-enquiry';

const initialValues: ProjectEnquiry = { name: '', email: '', message: '', website: '' };

export function ProjectEnquiryForm({ id = 'project-enquiry' }: { id?: string }) {
  const send = useSendProjectEnquiry();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const formik = useFormik({
    initialValues,
    validationSchema: projectEnquirySchema,
    onSubmit: async (values, helpers) => {
      setFailure(null);
      try {
        await send.mutateAsync(values);
        helpers.resetForm();
        setSent(true);
      } catch (error) {
        if (error instanceof EnquiryError) {
          helpers.setErrors(error.fields);
          setFailure(error.message);
        } else {
          setFailure('Your message could not be sent. Please try again in a moment.');
        }
      }
    },
  });

  const fieldError = (name: keyof ProjectEnquiry) =>
    formik.touched[name] || formik.submitCount > 0 ? formik.errors[name] : undefined;

  if (sent) {
    return (
      <Alert.Root status="success" role="status" rounded="xl" p="6">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Thanks! We have your project details.</Alert.Title>
          <Alert.Description>
            We reply within two working days, usually sooner.{' '}
            <Button variant="plain" size="sm" px="0" h="auto" onClick={() => setSent(false)}>
              Send another message
            </Button>
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }

  return (
    <form id={id} onSubmit={formik.handleSubmit} noValidate aria-label="Tell us about your project">
      <Stack gap="5">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <TextField
            label="Name"
            name="name"
            autoComplete="name"
            required
            value={formik.values.name}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={fieldError('name')}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={formik.values.email}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            error={fieldError('email')}
          />
        </SimpleGrid>
        <Field.Root required invalid={Boolean(fieldError('message'))}>
          <Field.Label>Your project</Field.Label>
          <Textarea
            name="message"
            rows={6}
            placeholder="What are you building, for whom, and by when?"
            value={formik.values.message}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
          />
          <Field.ErrorText>{fieldError('message')}</Field.ErrorText>
        </Field.Root>
        {/* The honeypot: hidden from people and assistive technology, tempting to bots. */}
        <Box position="absolute" left="-10000px" aria-hidden>
          <label>
            Website
            <input
              name="website"
              tabIndex={-1}
              autoComplete="off"
              value={formik.values.website}
              onChange={formik.handleChange}
            />
          </label>
        </Box>
        {failure && (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{failure}</Alert.Title>
          </Alert.Root>
        )}
        <Stack direction={{ base: 'column', sm: 'row' }} align={{ sm: 'center' }} gap="4">
          <Button type="submit" colorPalette="teal" size="lg" loading={formik.isSubmitting}>
            <SendIcon aria-hidden /> Send project details
          </Button>
          <Text color="fg.muted" fontSize="sm">
            Sent with tinyback, our own form backend. We reply within two working days.
          </Text>
        </Stack>
      </Stack>
    </form>
  );
}
