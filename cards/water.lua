-- Water (R8.1): fill an empty square with water, or put out a fire.
local EMPTY, FIRES = { empty = true }, { terrain = "fire" }

function play(ctx)
  local choices = {}
  if ctx:supply("water") > 0 and ctx:count_squares(EMPTY) > 0 then choices[#choices + 1] = "pour" end
  if ctx:count_squares(FIRES) > 0 then choices[#choices + 1] = "quench" end
  if #choices == 0 then
    ctx:log("Water: no empty square to fill and no fire to put out")
    return
  end
  if ctx:ask_option("Water: pour water or put out a fire?", choices) == "pour" then
    ctx:place_terrain(ctx:ask_square_where("Water: which empty square?", EMPTY), "water")
  else
    ctx:remove_terrain(ctx:ask_square_where("Water: which fire?", FIRES))
  end
end
