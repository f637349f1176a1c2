// The inbox's search field: what is typed goes to the URL (and the server) 300 ms after the last
// keystroke; a search changed from outside (Back, a link) is shown as it is.
import { useEffect, useRef, useState } from 'react';
import { CloseButton, Input, InputGroup } from '@chakra-ui/react';
import { SearchIcon } from 'lucide-react';
import { MAX_SEARCH_LENGTH } from '../message-query';

const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  /** The search in the URL. */
  value: string;
  onSearch: (q: string) => void;
}

export function SearchBox({ value, onSearch }: SearchBoxProps) {
  const [text, setText] = useState(value);
  // The URL value last seen and last sent: a URL change we did not send replaces the text.
  const [seen, setSeen] = useState(value);
  const [sent, setSent] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) {
      setSent(value);
      setText(value);
    }
  }

  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  useEffect(() => {
    const next = text.trim();
    if (next === value) return;
    const timer = setTimeout(() => {
      setSent(next);
      onSearchRef.current(next);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <InputGroup
      flex="1"
      minW={{ base: 'full', sm: '14rem' }}
      startElement={<SearchIcon aria-hidden="true" />}
      endElement={
        text ? (
          <CloseButton
            size="xs"
            me="-2"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              setSent('');
              onSearchRef.current('');
            }}
          />
        ) : undefined
      }
    >
      <Input
        type="search"
        aria-label="Search messages"
        placeholder="Search name, e-mail, message or fields"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        // The clear button above replaces the browser's own, which not every browser shows.
        css={{ '&::-webkit-search-cancel-button': { display: 'none' } }}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.preventDefault();
            setText('');
          }
        }}
      />
    </InputGroup>
  );
}
