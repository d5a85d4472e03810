// The page's only script: it reads GET /v1/model, fills an example request
// and sends the form's body to POST /v1/predict, all on this origin.
"use strict";
const $ = (id) => document.getElementById(id);

function headers() {
  const h = { "Content-Type": "application/json" };
  const t = $("token").value.trim();
  if (t) h["Authorization"] = "Bearer " + t;
  return h;
}

function row(name, value) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  const td = document.createElement("td");
  th.textContent = name;
  td.textContent = typeof value === "string" ? value : JSON.stringify(value);
  tr.append(th, td);
  $("meta").append(tr);
}

function example(m) {
  if (m.input === "graphs") {
    return { graphs: [{ id: "g1", labels: [0, 0, 0], edges: [[0, 1], [1, 2], [2, 0]] }] };
  }
  if (m.nodes > 0) {
    const ids = (m.example_ids || []).slice(0, 2);
    const node = { id: "new_1", edges: ids.map((to) => ({ to: to, weight: 1 })) };
    if (m.node_features > 0) {
      node.features = new Array(m.node_features).fill(0);
    }
    return { nodes: [node] };
  }
  return { points: [new Array(m.features).fill(0)] };
}

async function loadModel() {
  const r = await fetch("v1/model", { headers: headers() });
  if (r.status === 401) {
    $("status").textContent = "This server needs a bearer token: enter it below and send a request.";
    return;
  }
  const m = await r.json();
  $("status").textContent = "";
  $("meta").replaceChildren();
  for (const [k, v] of Object.entries(m)) row(k, v);
  if (!$("body").value) $("body").value = JSON.stringify(example(m), null, 2);
}

$("form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("answer").classList.remove("error");
  try {
    const r = await fetch("v1/predict", { method: "POST", headers: headers(), body: $("body").value });
    const text = await r.text();
    if (!r.ok) $("answer").classList.add("error");
    $("answer").textContent = r.status + " " + r.statusText + "\n" + text;
    if ($("meta").rows.length === 0) loadModel();
  } catch (e) {
    $("answer").classList.add("error");
    $("answer").textContent = String(e);
  }
});

loadModel().catch((e) => { $("status").textContent = "Cannot read the model: " + e; });
