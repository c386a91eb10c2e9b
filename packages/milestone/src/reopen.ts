import { stateCommand } from "./_state.js";

export default stateCommand("open", "Reopen a milestone");
