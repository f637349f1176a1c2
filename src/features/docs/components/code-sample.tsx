// A copyable code sample for the docs: the code as written, named by its label.
import { CodeBlock } from '../../../components/code-block';

export function CodeSample({ code, label }: { code: string; label: string }) {
  return <CodeBlock label={label} text={code} scrollLabel={`${label} code`} />;
}
