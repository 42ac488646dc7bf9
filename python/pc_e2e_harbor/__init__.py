"""pc-e2e's Harbor classes: a bubblewrap environment and the provisioned Bub as an ACP agent.

`pc-run-bub --runner harbor` names them in the JobConfig it writes
(`pc_e2e_harbor.environment:BwrapEnvironment`, and `pc_e2e_harbor.agent:CommandAgent` here or
`pc_e2e_harbor.agent:InstalledBubAgent` in a remote sandbox);
docs/DESIGN.md §5.11 describes both.
"""
