"""Drives an MCP server on stdio with the official Python SDK (`mcp`), as an
agent's client would: initialize, list the tools, call each one asked for.

    client.py SERVER_ARGV_JSON CALLS_JSON CWD

SERVER_ARGV_JSON is the server's command line; CALLS_JSON a list of
[tool, arguments]. Prints one JSON document: the server's name, the tools
(name, input schema's required fields, read-only hint, whether an output
schema is declared), and per call either {"structured", "is_error",
"text"} or {"error": code, "message"} for a JSON-RPC error. The SDK
checks each structured result against the tool's output schema.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
try:
    from mcp.shared.exceptions import MCPError
except ImportError:  # the SDK's name for it before 2.0
    from mcp.shared.exceptions import McpError as MCPError


async def main() -> None:
    argv = json.loads(sys.argv[1])
    calls = json.loads(sys.argv[2])
    params = StdioServerParameters(
        command=argv[0], args=argv[1:], env=dict(os.environ), cwd=sys.argv[3]
    )
    out = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            # Each result as its JSON on the wire (camelCase keys).
            wire = lambda m: m.model_dump(by_alias=True, mode="json", exclude_none=True)
            init = wire(await session.initialize())
            out["server"] = init["serverInfo"]["name"]
            listed = wire(await session.list_tools())
            out["tools"] = [
                {
                    "name": t["name"],
                    "required": sorted(t["inputSchema"].get("required", [])),
                    "read_only": t.get("annotations", {}).get("readOnlyHint") is True,
                    "output_schema": "outputSchema" in t,
                }
                for t in listed["tools"]
            ]
            results = []
            for name, args in calls:
                try:
                    r = wire(await session.call_tool(name, args))
                    results.append(
                        {
                            "structured": r.get("structuredContent"),
                            "is_error": r.get("isError") is True,
                            "text": [c["text"] for c in r["content"] if c["type"] == "text"],
                        }
                    )
                except MCPError as e:
                    results.append({"error": e.error.code, "message": e.error.message})
            out["results"] = results
    print(json.dumps(out))


asyncio.run(main())
