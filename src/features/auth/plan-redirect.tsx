// `/auth?plan=…` (the pricing cards' link) leads to the register form carrying the chosen plan.
import { Navigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../config/paths';
import { findPlan } from '../../config/site';

export function PlanRedirect() {
  const [params] = useSearchParams();
  const plan = findPlan(params.get('plan'));
  return <Navigate to={plan ? `${paths.register}?plan=${plan.id}` : paths.register} replace />;
}
