// The blog's sidebar: search, category links and the newest posts. On the list page the search
// filters as you type; elsewhere it takes you to the list with the search applied. The list page
// places the parts itself (search and categories before the posts on a phone); a post page shows
// them together beside the post.
import { useId, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  Box,
  chakra,
  Field,
  Heading,
  Input,
  InputGroup,
  Link,
  List,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { SearchIcon } from 'lucide-react';
import { paths } from '../../../config/paths';
import type { QueryView } from '../query-view';
import { blogFilterSearch, newestPosts } from '../filter-posts';
import { formatLongDate } from '../format-date';
import {
  BLOG_CATEGORIES,
  CATEGORY_LABELS,
  type BlogCategory,
  type BlogPostSummary,
} from '../types';

const RECENT_POST_COUNT = 3;

export interface BlogFiltersProps {
  /** Highlighted category link; null highlights "All posts", undefined highlights none. */
  activeCategory?: BlogCategory | null;
  /** Search text kept by category links so both filters combine. */
  query?: string;
  /** Live search: the current text and its setter. Without it the search box navigates to /blog. */
  search?: { value: string; onChange: (value: string) => void };
}

export interface BlogSidebarProps extends BlogFiltersProps {
  posts: QueryView<BlogPostSummary[]>;
}

/** Search and category links. */
export function BlogFilters({ activeCategory, query = '', search }: BlogFiltersProps) {
  return (
    <Stack gap={8}>
      <SearchBox search={search} />
      <CategoryLinks activeCategory={activeCategory} query={query} />
    </Stack>
  );
}

/** Everything in one column beside a post. */
export function BlogSidebar({ posts, ...filters }: BlogSidebarProps) {
  return (
    <Stack
      as="aside"
      aria-label="Blog sidebar"
      gap={8}
      position={{ lg: 'sticky' }}
      top={{ lg: '88px' }}
      alignSelf="start"
    >
      <BlogFilters {...filters} />
      <RecentPosts posts={posts} />
    </Stack>
  );
}

function SearchBox({ search }: { search: BlogFiltersProps['search'] }) {
  const navigate = useNavigate();
  const inputId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (search) return; // already applied while typing
    const value = new FormData(event.currentTarget).get('q');
    navigate(paths.blog + blogFilterSearch({ query: typeof value === 'string' ? value : '' }));
  };

  return (
    <chakra.form role="search" onSubmit={onSubmit}>
      <Field.Root>
        <Field.Label htmlFor={inputId} fontWeight="semibold">
          Search posts
        </Field.Label>
        <InputGroup startElement={<SearchIcon aria-hidden="true" />}>
          <Input
            id={inputId}
            name="q"
            type="search"
            placeholder="Search the blog…"
            autoComplete="off"
            {...(search
              ? { value: search.value, onChange: (e) => search.onChange(e.target.value) }
              : { defaultValue: '' })}
          />
        </InputGroup>
      </Field.Root>
    </chakra.form>
  );
}

function CategoryLinks({
  activeCategory,
  query,
}: {
  activeCategory?: BlogCategory | null;
  query: string;
}) {
  const items: { label: string; category: BlogCategory | null }[] = [
    { label: 'All posts', category: null },
    ...BLOG_CATEGORIES.map((category) => ({ label: CATEGORY_LABELS[category], category })),
  ];
  return (
    <Box as="nav" aria-labelledby="blog-categories-heading">
      <Heading as="h2" id="blog-categories-heading" size="md" mb={3}>
        Categories
      </Heading>
      <List.Root listStyleType="none" gap={1}>
        {items.map(({ label, category }) => {
          const active = activeCategory !== undefined && activeCategory === category;
          return (
            <List.Item key={label}>
              <Link
                asChild
                display="block"
                px={3}
                py={1.5}
                borderRadius="md"
                fontWeight={active ? 'semibold' : 'normal'}
                bg={active ? 'teal.subtle' : undefined}
                color={active ? 'teal.fg' : 'fg'}
                _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
              >
                <RouterLink
                  to={paths.blog + blogFilterSearch({ category, query })}
                  aria-current={active ? 'page' : undefined}
                >
                  {label}
                </RouterLink>
              </Link>
            </List.Item>
          );
        })}
      </List.Root>
    </Box>
  );
}

/** The newest posts as links; its skeleton has the size of the loaded list. */
export function RecentPosts({ posts }: { posts: QueryView<BlogPostSummary[]> }) {
  return (
    <Box as="section" aria-labelledby="blog-recent-heading">
      <Heading as="h2" id="blog-recent-heading" size="md" mb={3}>
        Recent posts
      </Heading>
      {posts.status === 'loading' && (
        <Stack gap={3} aria-hidden="true">
          {Array.from({ length: RECENT_POST_COUNT }, (_, i) => (
            // A title line and a date line, as each loaded entry has.
            <Box key={i}>
              <Skeleton h="1lh" w="90%" />
              <Skeleton h="1lh" w="40%" fontSize="sm" />
            </Box>
          ))}
        </Stack>
      )}
      {posts.status === 'error' && <Text color="fg.muted">Recent posts could not be loaded.</Text>}
      {posts.status === 'success' &&
        (posts.data.length === 0 ? (
          <Text color="fg.muted">No posts yet.</Text>
        ) : (
          <List.Root listStyleType="none" gap={3} aria-label="Recent posts">
            {newestPosts(posts.data, RECENT_POST_COUNT).map((post) => (
              <List.Item key={post.id}>
                <Link asChild fontWeight="medium" display="block">
                  <RouterLink to={paths.blogPost(post.id)}>{post.title}</RouterLink>
                </Link>
                <Text as="span" fontSize="sm" color="fg.muted">
                  {formatLongDate(post.created_at)}
                </Text>
              </List.Item>
            ))}
          </List.Root>
        ))}
    </Box>
  );
}
