// The dashboard's word when the account reached its daily cap of stored events (over all its
// sites): events sent after it are refused until midnight UTC. Nothing otherwise, and nothing while
// the count is loading or could not be read.
import { Alert } from '@chakra-ui/react';
import { formatNumber } from '../../../config/plans';
import { useAccountToday, type AccountToday } from '../api/get-account-today';

/** The notice's text, or null when the account is under its cap. */
export function accountLimitText(today: AccountToday): string | null {
  if (today.limit === null || today.events < today.limit) return null;
  return `This account reached its daily limit of ${formatNumber(today.limit)} events; events are counted again from midnight UTC.`;
}

export function AccountLimitNotice() {
  const { data } = useAccountToday();
  const text = data ? accountLimitText(data) : null;
  if (!text) return null;
  return (
    <Alert.Root status="warning" data-testid="account-limit-notice" alignItems="start">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{text}</Alert.Title>
        <Alert.Description>
          Until then, the events your sites send are not stored; the figures below stop at the
          limit.
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
