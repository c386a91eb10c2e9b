import { stateCommand } from "./_state.js";

export default stateCommand("closed", "Close a milestone");
