// The broker watch the viewer reads is the client's (`watchBroker()` of @orphus/roundtable-client); the viewer names
// its types from there, so a change of shape is a type error here rather than a page that shows nothing.
export type {
  BrokerWatch,
  ServedCounts,
  WatchEvent,
  WatchPage,
  WatchPost,
  WatchRoom,
  WatchSnapshot,
} from "@orphus/roundtable-client";
