"""pc-e2e's Harbor classes: a bubblewrap environment and the provisioned Bub as an ACP agent.

`pc-run-bub --runner harbor` names them in the JobConfig it writes
(`pc_e2e_harbor.environment:BwrapEnvironment`, `pc_e2e_harbor.agent:ProvisionedBubAgent`);
docs/DESIGN.md §5.11 describes both.
"""
