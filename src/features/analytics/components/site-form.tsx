// Adds a site or edits one: its name, its domains (one or more, typed as people paste them and
// stored as host names) and how many days its raw events are kept. Yup checks the fields first;
// the database's refusals (its own sentences, e.g. the 50 sites an account may have) are shown
// under the form.
import { useState } from 'react';
import { useFormik } from 'formik';
import { Alert, Button, HStack, Stack } from '@chakra-ui/react';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../components/toaster';
import { visibleText } from '../../../lib/visible-text';
import { useCreateSite } from '../api/create-site';
import type { AnalyticsSite } from '../api/get-sites';
import { useUpdateSite } from '../api/update-site';
import {
  describeSiteError,
  parseDomains,
  RETENTION_DAYS,
  SITE_NAME_MAX,
  siteSchema,
  type SiteValues,
} from '../site-domains';

export interface SiteFormProps {
  /** The site to edit; none: a new one. */
  site?: AnalyticsSite;
  onDone: (site: AnalyticsSite) => void;
  onCancel?: () => void;
}

export function SiteForm({ site, onDone, onCancel }: SiteFormProps) {
  const create = useCreateSite();
  const update = useUpdateSite();
  const [formError, setFormError] = useState<string | null>(null);
  const formik = useFormik<SiteValues>({
    initialValues: site
      ? { name: site.name, domains: site.domains.join(', '), retention_days: site.retention_days }
      : { name: '', domains: '', retention_days: RETENTION_DAYS.default },
    validationSchema: siteSchema,
    onSubmit: async (values) => {
      setFormError(null);
      const input = {
        name: values.name.trim(),
        domains: parseDomains(values.domains),
        retention_days: Number(values.retention_days),
      };
      try {
        const saved = site
          ? await update.mutateAsync({ id: site.id, ...input })
          : await create.mutateAsync(input);
        notify(
          'success',
          site ? 'Site saved' : 'Site added',
          site
            ? `"${visibleText(saved.name)}" was saved.`
            : `Paste the snippet of "${visibleText(saved.name)}" into your pages to start counting.`,
        );
        onDone(saved);
      } catch (error) {
        setFormError(describeSiteError(error, site ? 'save the site' : 'add the site'));
      }
    },
  });
  // Errors show from the first submit on, then follow each key stroke. Shown on blur instead, a
  // message appearing as the focus leaves a field moves the button under the pointer between
  // press and release, and the click that left the field is lost.
  const shown = (field: keyof SiteValues) =>
    formik.submitCount > 0 ? formik.errors[field] : undefined;

  return (
    <form
      onSubmit={formik.handleSubmit}
      noValidate
      aria-label={site ? `Edit ${visibleText(site.name)}` : 'Add a site'}
    >
      <Stack gap="3" borderWidth="1px" borderRadius="md" p="4">
        <TextField
          label="Site name"
          placeholder="My website"
          maxLength={SITE_NAME_MAX}
          autoComplete="off"
          {...formik.getFieldProps('name')}
          error={shown('name')}
          required
        />
        <TextField
          label="Domains"
          placeholder="example.com, www.example.com"
          hint="One or more, separated by commas. Page views from other domains are refused."
          autoComplete="off"
          inputMode="url"
          spellCheck={false}
          {...formik.getFieldProps('domains')}
          error={shown('domains')}
          required
        />
        <TextField
          label="Keep raw events for (days)"
          type="number"
          inputMode="numeric"
          min={RETENTION_DAYS.min}
          max={RETENTION_DAYS.max}
          hint={`Between ${RETENTION_DAYS.min} and ${RETENTION_DAYS.max} days; older events are deleted.`}
          {...formik.getFieldProps('retention_days')}
          error={shown('retention_days')}
          required
        />
        {formError && (
          <Alert.Root status="error" role="alert" size="sm">
            <Alert.Indicator />
            <Alert.Title>{formError}</Alert.Title>
          </Alert.Root>
        )}
        <HStack gap="2" flexWrap="wrap">
          <Button type="submit" size="sm" colorPalette="teal" loading={formik.isSubmitting}>
            {site ? 'Save site' : 'Add site'}
          </Button>
          {onCancel && (
            <Button size="sm" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </HStack>
      </Stack>
    </form>
  );
}
