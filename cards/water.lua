-- Water (R8.1): fill an empty square with water, or put out a fire.
function play(ctx)
  local empty = ctx:squares{ empty = true }
  local fires = ctx:squares{ terrain = "fire" }
  local choices = {}
  if ctx:supply("water") > 0 and #empty > 0 then choices[#choices + 1] = "pour" end
  if #fires > 0 then choices[#choices + 1] = "quench" end
  if #choices == 0 then
    ctx:log("Water: no empty square to fill and no fire to put out")
    return
  end
  if ctx:ask_option("Water: pour water or put out a fire?", choices) == "pour" then
    ctx:place_terrain(ctx:ask_square("Water: which empty square?", empty), "water")
  else
    ctx:remove_terrain(ctx:ask_square("Water: which fire?", fires))
  end
end
