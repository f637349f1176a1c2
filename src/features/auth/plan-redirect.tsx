// `/auth?plan=…&billing=…` (the pricing cards' link) leads to the register form carrying the
// chosen plan and billing cycle; unknown values are dropped rather than passed on.
import { Navigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { billingParam, findPlan, parseBilling } from '../../config/plans';

export function PlanRedirect() {
  const [params] = useSearchParams();
  const plan = findPlan(params.get('plan'));
  const cycle = parseBilling(params.get('billing'));
  if (!plan) return <Navigate to={paths.register} replace />;
  const billing = cycle === 'monthly' ? '' : `&billing=${billingParam(cycle)}`;
  return <Navigate to={`${paths.register}?plan=${plan.id}${billing}`} replace />;
}
