// A form's views and conversion on its card, when its messages come from pages with the analytics
// tracker: "1,240 views · 37 submissions · 3.0% conversion" over the last 30 days; otherwise one
// line saying what brings them. Nothing while loading or when they cannot be read: the card's
// other facts stand without them.
import { Text } from '@chakra-ui/react';
import { formatQuantity } from '../../../config/plans';
import { CONVERSION_DAYS, useFormConversion } from '../api/get-form-conversion';

export function FormConversion({ formId }: { formId: string }) {
  const { data } = useFormConversion(formId);
  if (!data) return null;
  if (data.submissions === 0)
    return (
      <Text>
        Add the analytics snippet to the pages with this form to see their views and its conversion.
      </Text>
    );
  const rate = data.conversion === null ? null : `${data.conversion.toFixed(1)}% conversion`;
  return (
    <Text>
      {[formatQuantity(data.views, 'view'), formatQuantity(data.submissions, 'submission'), rate]
        .filter(Boolean)
        .join(' · ')}{' '}
      <Text as="span" color="fg.subtle">
        (last {CONVERSION_DAYS} days)
      </Text>
    </Text>
  );
}
