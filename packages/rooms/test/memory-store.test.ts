// The room-store contract against the memory store: several brokers' stores on one memory space (peers).
import { MemoryRoomStore, type RoomStoreOptions } from "@orphus/rooms";
import { describeRoomStoreContract, type StoreBackend } from "../../../test-support/room-store-contract.js";

describeRoomStoreContract({
  name: "memory",
  modelRuns: 150,
  async open(options: RoomStoreOptions): Promise<StoreBackend> {
    let first: MemoryRoomStore | undefined;
    const stores: MemoryRoomStore[] = [];
    return {
      async store(brokerId) {
        const store = first === undefined ? new MemoryRoomStore({ ...options, brokerId }) : first.peer(brokerId);
        first ??= store;
        stores.push(store);
        return store;
      },
      async close() {
        for (const store of stores) await store.close();
      },
    };
  },
});
