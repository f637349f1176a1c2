// A post's markdown body behind an error boundary: content the renderer refuses (not a string)
// shows an error state in place of the body instead of taking the whole page down.
import { Component, type ReactNode } from 'react';
import { Alert } from '@chakra-ui/react';
import { Markdown } from '../../../components/markdown';

interface BoundaryState {
  failed: boolean;
}

class PostBodyBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }

  render() {
    if (this.state.failed) {
      return (
        <Alert.Root status="error" borderRadius="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>This post could not be displayed.</Alert.Title>
            <Alert.Description>Its content is not valid. Please try again later.</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      );
    }
    return this.props.children;
  }
}

export function PostBody({ content }: { content: unknown }) {
  return (
    <PostBodyBoundary>
      <Markdown content={content} />
    </PostBodyBoundary>
  );
}
