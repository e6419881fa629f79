// The roundtable viewer's page: one event stream from its server (no polling), every text put in with textContent
// (never as HTML), a chart of what each role was served drawn by uPlot, which ships with the page.
"use strict";
(() => {
  const MAX_POSTS = 100;
  const MAX_CHART_POINTS = 600;
  const token = new URLSearchParams(location.search).get("token") ?? "";
  const q = (params) => new URLSearchParams({ ...params, token }).toString();
  const $ = (id) => document.getElementById(id);

  let view = null;
  let selected = null;
  let chart = null;
  let chartRoles = "";
  let chartQueued = false;

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    if (className !== undefined) node.className = className;
    return node;
  }

  function uptime(startedAt) {
    const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(startedAt)) / 1000));
    if (seconds < 60) return `${seconds}s`;
    const minutes = Math.floor(seconds / 60);
    if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
    return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  }

  function renderBroker() {
    const broker = view.broker;
    const rows = [
      ["pid", broker.pid],
      ["store", broker.store],
      ["protocol", `v${broker.protocol}`],
      ["up", uptime(broker.startedAt)],
    ];
    $("broker").replaceChildren(
      ...rows.flatMap(([label, value]) => {
        const dd = el("dd", value);
        if (label === "up") dd.id = "uptime";
        return [el("dt", label), dd];
      }),
    );
  }

  function roomOf(name) {
    return view?.rooms.find((room) => room.room === name);
  }

  function renderRooms() {
    const list = $("rooms");
    list.replaceChildren(
      ...view.rooms.map((room) => {
        const item = el("li");
        item.dataset.room = room.room;
        if (room.room === selected) item.className = "selected";
        item.append(el("span", room.room, "room-name"), el("span", ` · ${room.lastSeq} posts`, "note"));
        const members = el("div", undefined, "members");
        for (const member of room.members) {
          const chip = el("span", `${member.role} · ${member.unread} unread`, "member");
          chip.dataset.role = member.role;
          chip.dataset.unread = String(member.unread);
          members.append(chip);
        }
        item.append(members);
        item.addEventListener("click", () => select(room.room));
        return item;
      }),
    );
    const notes = [];
    if (view.rooms.length === 0) notes.push("No rooms yet.");
    if (view.roomsLeftOut > 0) notes.push(`${view.roomsLeftOut} more rooms not shown.`);
    if (view.closed !== null) notes.push(view.closed);
    $("rooms-note").textContent = notes.join(" ");
  }

  function postRow(post) {
    const row = el("tr");
    row.dataset.seq = String(post.seq);
    row.append(
      el("td", post.seq, "num"),
      el("td", post.author),
      el("td", new Date(post.at).toLocaleTimeString()),
      el("td", post.headline),
      el("td", post.chars, "num"),
    );
    row.addEventListener("click", () => void showFull(post.seq));
    return row;
  }

  function renderRoom() {
    const room = roomOf(selected);
    $("room").hidden = room === undefined;
    if (room === undefined) return;
    $("room-title").textContent = room.room;
    $("room-held").textContent =
      `holds ${room.held.messages} messages, ${room.held.chars} characters; newest #${room.lastSeq}`;
    $("posts").tBodies[0].replaceChildren(...room.posts.map(postRow));
    const form = $("post-form");
    form.hidden = view.postAs === null;
    if (view.postAs !== null) $("post-title").textContent = `Post to ${room.room} as ${view.postAs}`;
    queueChart();
  }

  function select(name) {
    if (selected !== name) {
      selected = name;
      $("full").hidden = true;
      $("older-posts").hidden = true;
      $("older-posts").tBodies[0].replaceChildren();
    }
    renderRooms();
    renderRoom();
  }

  function renderAll() {
    renderBroker();
    if (roomOf(selected) === undefined) selected = view.rooms[0]?.room ?? null;
    renderRooms();
    renderRoom();
  }

  // --- the chart: one series per role (what it was served: digest + fetch + ping characters) and what the room holds
  function queueChart() {
    if (chartQueued) return;
    chartQueued = true;
    requestAnimationFrame(() => {
      chartQueued = false;
      drawChart();
    });
  }

  function chartData(room) {
    const roles = [...new Set(room.chart.filter((p) => p.role !== null).map((p) => p.role))].sort();
    const times = [...new Set(room.chart.map((p) => p.at))].sort((a, b) => a - b);
    const last = new Map();
    const columns = roles.map(() => []);
    const held = [];
    let index = 0;
    const points = [...room.chart].sort((a, b) => a.at - b.at);
    for (const at of times) {
      while (index < points.length && points[index].at === at) {
        last.set(points[index].role, points[index].chars);
        index++;
      }
      roles.forEach((role, i) => columns[i].push(last.has(role) ? last.get(role) : null));
      held.push(last.has(null) ? last.get(null) : null);
    }
    return { roles, data: [times.map((t) => t / 1000), ...columns, held] };
  }

  const COLOURS = ["#2b6cb0", "#c05621", "#2f855a", "#9b2c2c", "#6b46c1", "#b7791f", "#2c7a7b", "#97266d"];

  function drawChart() {
    const room = roomOf(selected);
    const target = $("chart");
    if (room === undefined || typeof uPlot !== "function") return;
    const { roles, data } = chartData(room);
    const key = JSON.stringify([room.room, roles]);
    if (chart !== null && key === chartRoles) {
      chart.setData(data);
      return;
    }
    chart?.destroy();
    chartRoles = key;
    const series = [
      {},
      ...roles.map((role, i) => ({ label: role, stroke: COLOURS[i % COLOURS.length], width: 2 })),
      { label: "room holds", stroke: "#718096", width: 1, dash: [6, 4] },
    ];
    chart = new uPlot(
      {
        width: Math.max(320, target.clientWidth || 720),
        height: 240,
        series,
        scales: { x: { time: true } },
        axes: [{}, { size: 70 }],
      },
      data,
      target,
    );
    target.dataset.roles = String(roles.length);
  }

  // --- full text and older posts, in bounded pages from the server
  async function peek(params) {
    const response = await fetch(`/peek?${q(params)}`);
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
    return body;
  }

  function showMessage(message) {
    $("full").hidden = false;
    $("full-title").textContent = `#${message.seq} ${message.author} · ${new Date(message.at).toLocaleString()}`;
    $("full-text").textContent = message.text;
  }

  async function showFull(seq) {
    try {
      const page = await peek({ room: selected, afterSeq: String(seq - 1), limit: "1" });
      const message = page.messages[0];
      if (message === undefined || message.seq !== seq) {
        $("full").hidden = false;
        $("full-title").textContent = `#${seq}`;
        $("full-text").textContent = "This message is no longer held by the room.";
        return;
      }
      showMessage(message);
    } catch (error) {
      $("full").hidden = false;
      $("full-title").textContent = `#${seq}`;
      $("full-text").textContent = `Could not read it: ${error.message}`;
    }
  }

  $("older").addEventListener("click", async () => {
    const room = roomOf(selected);
    if (room === undefined) return;
    const older = $("older-posts").tBodies[0];
    const oldestShown = Number(older.rows[0]?.dataset.seq ?? room.posts[0]?.seq ?? room.lastSeq + 1);
    try {
      const page = await peek({ room: room.room, beforeSeq: String(oldestShown), limit: "50" });
      older.replaceChildren(
        ...page.messages.map((message) => {
          const firstLine = message.text.split("\n", 1)[0].slice(0, 200);
          const row = postRow({ ...message, headline: firstLine, chars: message.text.length });
          row.addEventListener("click", () => showMessage(message));
          return row;
        }),
      );
      $("older-posts").hidden = false;
      $("older").textContent = page.more ? "Older posts" : "No older posts";
    } catch (error) {
      $("older").textContent = `Older posts (failed: ${error.message})`;
    }
  });

  $("post-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("post-text").value;
    const headline = $("post-headline").value;
    const result = $("post-result");
    try {
      const response = await fetch(`/post?${q({})}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ room: selected, text, ...(headline === "" ? {} : { headline }) }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
      result.textContent = `posted #${body.seq}`;
      $("post-text").value = "";
      $("post-headline").value = "";
    } catch (error) {
      result.textContent = `not posted: ${error.message}`;
    }
  });

  // --- the event stream: the whole view first (and again after a reconnect or a gap), then one event at a time
  const stream = new EventSource(`/events?${q({})}`);
  const status = $("status");
  stream.addEventListener("open", () => {
    status.textContent = "live";
    status.className = "status live";
  });
  stream.addEventListener("error", () => {
    status.textContent = "reconnecting…";
    status.className = "status lost";
  });
  const on = (kind, apply) =>
    stream.addEventListener(kind, (event) => {
      const data = JSON.parse(event.data);
      if (view === null) return;
      const room = roomOf(data.room);
      if (room === undefined) {
        view.rooms.push({
          room: data.room,
          lastSeq: 0,
          held: { messages: 0, chars: 0 },
          members: [],
          served: [],
          posts: [],
          chart: [],
        });
      }
      apply(roomOf(data.room), data);
      renderRooms();
      if (data.room === selected) renderRoom();
      else if (selected === null) select(data.room);
    });
  stream.addEventListener("view", (event) => {
    view = JSON.parse(event.data);
    renderAll();
  });
  on("post", (room, data) => {
    room.posts.push(data.post);
    if (room.posts.length > MAX_POSTS) room.posts.splice(0, room.posts.length - MAX_POSTS);
    room.lastSeq = Math.max(room.lastSeq, data.post.seq);
  });
  on("members", (room, data) => {
    room.members = data.members;
  });
  const addPoint = (room, point) => {
    room.chart.push(point);
    if (room.chart.length > MAX_CHART_POINTS) room.chart.splice(0, room.chart.length - MAX_CHART_POINTS);
  };
  on("served", (room, data) => {
    const index = room.served.findIndex((s) => s.role === data.served.role);
    if (index === -1) room.served.push(data.served);
    else room.served[index] = data.served;
    addPoint(room, data.point);
  });
  on("room", (room, data) => {
    room.held = data.held;
    room.lastSeq = data.lastSeq;
    addPoint(room, data.point);
  });

  // The broker's uptime ticks here, from the time it started; nothing is asked of the server.
  setInterval(() => {
    const shown = $("uptime");
    if (shown !== null && view !== null) shown.textContent = uptime(view.broker.startedAt);
  }, 1000);
})();
